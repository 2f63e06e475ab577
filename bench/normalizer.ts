/**
 * The block-index normaliser (seed 003): events/s in process, a fresh turn per pass over the
 * pre-rendered Anthropic events of an index-reuse turn (parse, feed, end), against the bare
 * JSON.parse of the same lines; and through `adk-conformance normalize` (spawned, NDJSON in and
 * out) against the spawned echo filter.
 */
import { createBlockNormalizer } from '../reference-impl/block-normalizer.ts';
import { repoRoot, tsxArgs } from './lib/children.ts';
import { figure, type BenchResult, type Figure } from './lib/figures.ts';
import { alternate, parseOnly, type Pass } from './lib/in-process.ts';
import { repeatedEventLines, turnEvents } from './lib/pipeline-inputs.ts';
import { filterRates } from './transformer.ts';

export type NormalizerBenchOptions = { rounds: number; roundMs: number; cliEvents: number };

export const normalizerBenchDefaults: NormalizerBenchOptions = { rounds: 3, roundMs: 700, cliEvents: 150_000 };

/** One turn per pass: parse each line, feed it, end the turn. */
export function normalizePass(lines: readonly string[]): Pass {
  let out = 0;
  const normalizer = createBlockNormalizer({ onEvent: () => { out++; } });
  return () => {
    for (const line of lines) normalizer.feed(JSON.parse(line));
    normalizer.end();
    return lines.length + (out < 0 ? 1 : 0);
  };
}

export async function benchNormalizer(options: NormalizerBenchOptions = normalizerBenchDefaults): Promise<BenchResult> {
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  for (const id of ['index_reuse_turn', 'index_reuse_parallel_tool_uses']) {
    const lines = turnEvents(id).map((e) => JSON.stringify(e));
    const [own, parse] = alternate([normalizePass(lines), parseOnly(lines)], options.rounds, options.roundMs) as [ReturnType<typeof alternate>[0], ReturnType<typeof alternate>[0]];
    figures.push(figure({ name: `normaliser events/s in process (${id}, ${lines.length} events a turn)`, unit: 'events/s', value: own.perSecond, baseline: { name: 'JSON.parse alone', value: parse.perSecond } }));
    details[id] = { normalizer: own, parse };
  }
  const events = turnEvents('index_reuse_turn');
  const repeats = Math.max(1, Math.round(options.cliEvents / events.length));
  const cli = await filterRates(tsxArgs(`${repoRoot}/cli/main.ts`, ['normalize']), () => repeatedEventLines(events, repeats));
  figures.push(figure({ name: `adk-conformance normalize events/s (${cli.own.inputLines} events, one turn; startup ${Math.round(cli.ownStartup.wallMs)} ms excluded)`, unit: 'events/s', value: cli.ownRate, baseline: { name: 'spawned NDJSON echo', value: cli.echoRate } }));
  details['cli'] = cli;
  return {
    id: 'normalizer',
    title: 'normaliser: in process and through adk-conformance normalize',
    figures,
    notes: [
      `in process: ${options.rounds} alternating rounds of ${options.roundMs} ms; each pass parses and feeds one turn's events (rendered by the mock's Anthropic renderer) and ends the turn`,
      `CLI: index_reuse_turn's events repeated ${repeats} times as one turn (tool ids unique per copy); events/s as for transform`,
    ],
    details,
  };
}
