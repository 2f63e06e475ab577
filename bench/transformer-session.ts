/**
 * Issue 30 §3: the example Python transformer certified through its command in the session form
 * (one long-lived process, many runs: docs/session-protocol.md) against, in the same run,
 * - the in-process reference transformer (`--transformer-module harness/targets/transformer/reference.ts`):
 *   the same certification with no process at all; goal: the session form <= 1.5x its wall time;
 * - the same command in the one-shot form (`--protocol one-shot`: a fresh process per run).
 * Each is spawned as a user runs it; with several rounds the order rotates (A B C, C B A...) so a
 * burst of someone else's load on this shared machine lands on every side, and medians are quoted.
 */
import { runCertification, runsOf, verdictOf, type Timed } from './lib/certify-run.ts';
import { atMost, figure, type BenchResult } from './lib/figures.ts';
import { median } from './lib/stats.ts';

export type TransformerSessionBenchOptions = { rounds: number; timeoutMs: number; /** Flags after the target's (the smoke test narrows the scenarios). */ extra?: string[] };
export const transformerSessionBenchDefaults: TransformerSessionBenchOptions = { rounds: 1, timeoutMs: 300_000 };

const example = 'python3 examples/python-transformer/transformer.py';

const sides = [
  { key: 'session', args: ['--transformer-cmd', example, '--protocol', 'session'] },
  { key: 'module', args: ['--transformer-module', 'harness/targets/transformer/reference.ts'] },
  { key: 'oneShot', args: ['--transformer-cmd', example, '--protocol', 'one-shot'] },
] as const;

type Key = (typeof sides)[number]['key'];

export async function benchTransformerSession(options: TransformerSessionBenchOptions = transformerSessionBenchDefaults): Promise<BenchResult> {
  if (!Number.isInteger(options.rounds) || options.rounds < 1) throw new RangeError(`transformer-session bench: rounds must be a positive integer, got ${options.rounds}`);
  const runs: Record<Key, Timed[]> = { session: [], module: [], oneShot: [] };
  for (let round = 0; round < options.rounds; round++) {
    const order = sides.map((_, i) => sides[(i + round) % sides.length] as (typeof sides)[number]);
    if (round % 2 === 1) order.reverse();
    for (const side of order) runs[side.key].push(await runCertification([...side.args, ...(options.extra ?? [])], options.timeoutMs));
  }
  const wall = (key: Key) => median(runs[key].map((t) => t.wallMs));
  const label = (key: Key) => { const last = runs[key].at(-1) as Timed; return `${runsOf(last)} runs, verdict: ${verdictOf(last)}`; };
  const session = wall('session');
  const module = wall('module');
  return {
    id: 'transformer-session',
    title: 'the example Python transformer: session form vs the in-process reference and the one-shot form',
    figures: [
      figure({
        name: `certify examples/python-transformer, session form (${label('session')})`,
        unit: 'ms',
        value: session,
        baseline: { name: `in-process reference transformer, same run (${label('module')})`, value: module },
        // A faster run that judged differently would prove nothing: the verdicts must agree.
        goal: atMost(module > 0 && [...runs.session, ...runs.module].every((t) => verdictOf(t) === verdictOf(runs.module[0] as Timed)) ? session / module : null, 1.5, '<= 1.5x the reference module, same verdict'),
      }),
      figure({ name: `the same command, session form against the one-shot form (one-shot: ${label('oneShot')})`, unit: 'ms', value: session, baseline: { name: '--protocol one-shot, same run', value: wall('oneShot') } }),
      figure({ name: 'one-shot form against the in-process reference transformer', unit: 'ms', value: wall('oneShot'), baseline: { name: 'in-process reference, same run', value: module } }),
    ],
    notes: [`each spawned as \`node bin/adk-conformance.js run <target> [--protocol session|one-shot]\`, CI=1, default --jobs and --generated; ${options.rounds} round(s), order rotating, medians`],
    details: Object.fromEntries(sides.map((s) => [s.key, runs[s.key].map((t) => ({ wallMs: t.wallMs, code: t.code, engineMs: t.report?.durationMs, verdict: verdictOf(t) }))])),
  };
}
