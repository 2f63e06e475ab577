/**
 * What the long-running and line-printing commands share: where their lines go, and how a server
 * command waits for its stop signal. Tests pass their own `LineIo` and `stopSignal`.
 */
export type LineIo = { out: (line: string) => void; err: (line: string) => void };

export function processLineIo(): LineIo {
  return {
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
  };
}

/** Resolves with the signal's name on the first SIGINT or SIGTERM (a server then closes cleanly). */
export function waitForStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
