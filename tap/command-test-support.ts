/**
 * What the tap command's tests share: `adk-conformance tap ARGS` run in process (cli/commands/tap.ts
 * `run`), its output lines kept, resolved once it says where it listens (and any other line the
 * test waits for, e.g. the live page's URL), and stopped by the test as SIGINT would stop it.
 */
import { run } from '../cli/commands/tap.ts';

export type TapCommand = {
  /** Where the (front) tap listens. */
  url: string;
  /** Every line it printed so far; errors prefixed `err: `. */
  lines: string[];
  /** Its exit code, once it stopped (`--runs`, `--duration` or `stop`). */
  exit: Promise<number>;
  /** The first capture group of `pattern` in the first line it matches. */
  found: (pattern: RegExp) => string | undefined;
  stop: (reason?: string) => void;
};

const listening = /^tap listening on (\S+)/;

/** Resolves once the tap listens and a line matched each of `waitFor`; rejects when it exits first. */
export function startTapCommand(args: readonly string[], waitFor: readonly RegExp[] = []): Promise<TapCommand> {
  const lines: string[] = [];
  let stop!: (reason: string) => void;
  const stopSignal = new Promise<string>((resolve) => { stop = resolve; });
  const found = (pattern: RegExp) => lines.map((l) => pattern.exec(l)?.[1]).find((v) => v !== undefined);
  return new Promise((resolve, reject) => {
    let ready = false;
    const check = () => {
      const url = found(listening);
      if (ready || url === undefined || waitFor.some((p) => found(p) === undefined)) return;
      ready = true;
      resolve({ url, lines, exit, found, stop: (reason = 'SIGINT') => stop(reason) });
    };
    const exit = run([...args], {
      out: (line) => { lines.push(line); check(); },
      err: (line) => lines.push(`err: ${line}`),
      stopSignal,
    });
    exit.then(
      (code) => { if (!ready) reject(new Error(`the tap exited with ${code} before it was ready:\n${lines.join('\n')}`)); },
      (error: unknown) => { if (!ready) reject(error as Error); },
    );
  });
}
