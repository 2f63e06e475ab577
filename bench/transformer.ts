/**
 * The reference transformer (ADK events -> AgentBriefingEvents): events/s in process, a fresh
 * `createTransformer` per run over pre-rendered Cedar Creek frames, against the bare JSON.parse of
 * the same frames; and through `adk-conformance transform` (spawned, NDJSON in and out) against
 * a spawned echo filter (parse and re-serialise every line). Goal (issue 7): at least 200,000
 * events/s in process.
 */
import { createTransformer } from '../reference-impl/transformer/index.ts';
import { cedarCreekId, cedarCreekStreamingId, streamScenario, workloads } from './lib/bench-scenarios.ts';
import { repoRoot, tsxArgs } from './lib/children.ts';
import { atLeast, figure, type BenchResult, type Figure } from './lib/figures.ts';
import { runFilter, type FilterRun } from './lib/filters.ts';
import { alternate, parseOnly, type Pass } from './lib/in-process.ts';
import { repeatedLines, runFrames, scenarioFrames } from './lib/pipeline-inputs.ts';

export type TransformerBenchOptions = { rounds: number; roundMs: number; cliEvents: number };

export const transformerBenchDefaults: TransformerBenchOptions = { rounds: 3, roundMs: 700, cliEvents: 20_000 };

/** One run per pass: a new transformer, every frame, end. */
export function transformPass(frames: readonly string[]): Pass {
  return () => {
    const transformer = createTransformer({ sessionId: 'bench-session' });
    for (const data of frames) transformer.pushData(data);
    transformer.end();
    return frames.length;
  };
}

export async function benchTransformer(options: TransformerBenchOptions = transformerBenchDefaults): Promise<BenchResult> {
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  const cases = [
    { label: 'Cedar Creek, seed 001, 5 events', id: cedarCreekId, frames: runFrames(cedarCreekId) },
    { label: 'Cedar Creek streaming, 16 events', id: cedarCreekStreamingId, frames: runFrames(cedarCreekStreamingId) },
    { label: '100-event stream, 99 chunks + final', id: workloads.long.id, frames: scenarioFrames(streamScenario(workloads.long)) },
  ];
  for (const { label, id, frames } of cases) {
    const [own, parse] = alternate([transformPass(frames), parseOnly(frames)], options.rounds, options.roundMs) as [ReturnType<typeof alternate>[0], ReturnType<typeof alternate>[0]];
    figures.push(figure({ name: `transformer events/s in process (${label})`, unit: 'events/s', value: own.perSecond, baseline: { name: 'JSON.parse alone', value: parse.perSecond }, goal: atLeast(own.perSecond, 200_000, '>= 200,000/s') }));
    details[id] = { transformer: own, parse };
  }
  const frames = runFrames(cedarCreekId);
  const repeats = Math.max(1, Math.round(options.cliEvents / frames.length));
  const cli = await filterRates(tsxArgs(`${repoRoot}/cli/main.ts`, ['transform', '--session-id', 'bench-session']), () => repeatedLines(frames, repeats));
  figures.push(figure({ name: `adk-conformance transform events/s (${cli.own.inputLines} events, one run; startup ${Math.round(cli.ownStartup.wallMs)} ms excluded)`, unit: 'events/s', value: cli.ownRate, baseline: { name: 'spawned NDJSON echo', value: cli.echoRate } }));
  details['cli'] = cli;
  return {
    id: 'transformer',
    title: 'transformer: in process and through adk-conformance transform',
    figures,
    notes: [
      `in process: ${options.rounds} alternating rounds of ${options.roundMs} ms; one createTransformer per run, pushData per frame, end(); frames rendered by the mock`,
      `CLI: Cedar Creek's frames repeated ${repeats} times as one run (ids unique per copy); events/s = input lines / (wall time − the same command's wall time on empty input)`,
    ],
    details,
  };
}

export type FilterRates = { own: FilterRun; ownStartup: FilterRun; echo: FilterRun; echoStartup: FilterRun; ownRate: number; echoRate: number };

/** A filter and the echo baseline, each timed on the input and on empty input (its startup). */
export async function filterRates(args: string[], input: () => Iterable<string>): Promise<FilterRates> {
  const echoArgs = tsxArgs(`${repoRoot}/bench/children/ndjson-echo.ts`);
  const ownStartup = await runFilter(args, []);
  const echoStartup = await runFilter(echoArgs, []);
  const own = await runFilter(args, input());
  const echo = await runFilter(echoArgs, input());
  for (const [what, run] of [['the filter', own], ['the echo baseline', echo]] as const) {
    if (run.exitCode !== 0) throw new Error(`${what} (node ${(what === 'the filter' ? args : echoArgs).join(' ')}) exited with ${run.exitCode}: ${run.stderr.slice(-500)}`);
  }
  // Startup varies by a few hundred ms on a busy machine: a run that is mostly startup gives no rate.
  const rate = (run: FilterRun, startup: FilterRun) => (run.wallMs - startup.wallMs > 0.25 * run.wallMs ? (run.inputLines * 1000) / (run.wallMs - startup.wallMs) : Number.NaN);
  return { own, ownStartup, echo, echoStartup, ownRate: rate(own, ownStartup), echoRate: rate(echo, echoStartup) };
}
