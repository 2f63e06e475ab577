/**
 * Console colour, decided once per stream by the conventions every tool of this audience follows
 * (no-color.org, FORCE_COLOR as in Node, vitest and chalk): FORCE_COLOR (any value but 0/false)
 * turns it on even into a pipe or a CI log, NO_COLOR (any non-empty value) turns it off, and
 * otherwise a terminal gets colour and a file or a pipe gets none. Colour is only ever added around
 * a word the line already says (FAIL, PASS, the verdict), so a log read without colour loses nothing.
 */
export type Paint = { red: (s: string) => string; green: (s: string) => string; yellow: (s: string) => string; bold: (s: string) => string; enabled: boolean };

export function colourEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}

const wrap = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;

export function createPaint(enabled: boolean): Paint {
  if (!enabled) {
    const same = (s: string) => s;
    return { red: same, green: same, yellow: same, bold: same, enabled };
  }
  return { red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), bold: wrap(1, 22), enabled };
}

/** The paint for this process's stdout. */
export function stdoutPaint(): Paint {
  return createPaint(colourEnabled(process.env, process.stdout.isTTY === true));
}
