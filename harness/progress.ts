/**
 * The console's progress over one certification: `i/N` runs with an estimate of the time left,
 * on a terminal as one line rewritten in place, in a CI log (no terminal) as one line every
 * `everyMs` at most, never a line per passing run. A failed or errored run always gets its own
 * line, as it is the first thing to read. N counts runs (docs/harness.md "Counting"): a scenario
 * once per part it applies to, and each probe; it grows as each part starts and lists its jobs.
 */
import type { Progress } from './engine.ts';
import type { Paint } from './colour.ts';
import { clipReason } from './clip.ts';

export type ProgressOptions = {
  /** A terminal: the `\r` line; otherwise periodic lines. */
  interactive: boolean;
  /** Raw writes (the in-place line). */
  write: (text: string) => void;
  log: (line: string) => void;
  paint: Paint;
  /** Least time between two progress lines in a log (default 10 s). */
  everyMs?: number;
  now?: () => number;
};

/** `about 40 s left`, `about 3 min left`. */
export function describeLeft(ms: number): string {
  if (ms < 1_000) return 'about 1 s left';
  if (ms < 90_000) return `about ${Math.round(ms / 1000)} s left`;
  return `about ${Math.round(ms / 60_000)} min left`;
}

export function createProgress(options: ProgressOptions): (p: Progress) => void {
  const now = options.now ?? (() => performance.now());
  const everyMs = options.everyMs ?? 10_000;
  const { paint, log } = options;
  const totals = new Map<string, number>();
  const t0 = now();
  let done = 0;
  let lastLine = t0;
  const total = () => [...totals.values()].reduce((a, b) => a + b, 0);
  const status = (): string => {
    const n = total();
    const elapsed = now() - t0;
    const left = done > 0 && n > done ? `, ${describeLeft((elapsed / done) * (n - done))}` : '';
    return `${done}/${n} runs${left}`;
  };
  return (p) => {
    if (p.kind === 'scenario-start') {
      totals.set(p.part, p.total);
      if (options.interactive) options.write(`\r\x1b[K${status()} [${p.part}] ${p.id}`);
      return;
    }
    if (options.interactive) options.write('\r\x1b[K');
    if (p.kind === 'confirm' && p.overran !== undefined) {
      log(`[${p.part}] repeated alone ${p.id}: it overran its bound beside the other runs; alone it ${p.overran === 'errored' ? 'errored again' : p.overran}`);
      return;
    }
    if (p.kind === 'confirm') {
      log(`[${p.part}] repeated alone ${p.id}: ${[p.confirmed.length ? `confirmed ${p.confirmed.join(', ')}` : '', p.flaky.length ? `flaky ${p.flaky.join(', ')} (failed once, passed alone)` : ''].filter(Boolean).join('; ')}`);
      return;
    }
    done += 1;
    if (p.status !== 'passed') {
      const word = p.status === 'failed' ? paint.red(p.status.padEnd(7)) : paint.yellow(p.status.padEnd(7));
      // An errored run observed nothing: why is the first thing to fix, so it is on the console, not only in report.json.
      log(`[${p.part}] ${word} ${p.id} (${p.durationMs} ms)${p.failed.length ? ` failed: ${p.failed.join(', ')}` : ''}${p.status === 'errored' && p.reason ? `: ${clipReason(p.reason, 240)}` : ''}`);
    }
    if (!options.interactive && now() - lastLine >= everyMs && done < total()) {
      lastLine = now();
      log(`progress: ${status()}`);
    }
  };
}
