/**
 * `adk-conformance frames SCENARIO [--dialect D] [--enhanced] [--streaming|--no-streaming]`: the data
 * lines of a scenario's stream, one per line, exactly as a transformer under test receives them on
 * stdin (docs/transform-contract.md "Input": a field spread over several `data:` lines joined with
 * a space). Rendered offline from the scenario (no mock to start), in its own dialect unless
 * --dialect names another it renders in, with the scenario's faults applied; read with the kit's
 * one SSE reader. A team pipes it into its own binary without rerunning the harness.
 */
import { createSseReader } from '../../core/sse.ts';
import { applyFaults } from '../../mock-adk/core/faults.ts';
import { render } from '../../mock-adk/core/render.ts';
import { describeDialects, resolveDialect, versionedName } from '../../mock-adk/core/dialects/names.ts';
import { scenarioDialects } from '../../mock-adk/core/scenario-dialects.ts';
import { defaultScenariosDir, loadScenarios } from '../../scenarios/loader.ts';
import { nearest, parseOptions, UsageError } from '../args.ts';
import { generatedBatch, generatedIdPrefix, generatedIndex } from '../../harness/generated.ts';
import { resolveSeed } from '../../harness/seed.ts';
import { packageVersion } from '../../harness/version.ts';

const help = `usage: adk-conformance frames SCENARIO [--dialect NAME] [--enhanced] [--streaming | --no-streaming] [--dir DIR] [--seed N]

Print the data lines of a scenario's stream, one per line: what a transformer under test reads on
stdin (docs/transform-contract.md). Pipe them into your own transformer:

  npx adk-conformance frames cedar_creek_briefing | python3 my_transformer.py

  --dialect NAME   render in another server's dialect the scenario renders in (default: its own)
  --enhanced       the /run_sse_enhanced stream (with _audit_metadata), as an audit scenario sends it
  --streaming      the streaming (SSE mode) rendering; --no-streaming the one-event-per-call one
                   (default: what the scenario's request says)
  --dir DIR        read the scenario from DIR (default: the kit's corpus)
  --seed N         for a generated run (${generatedIdPrefix}K, as a run's report names it): the run's seed (default: the
                   kit version's, as for run); the same K and seed give the same run offline`;

export type FramesIo = { out: (text: string) => void };

export async function run(argv: string[], io: FramesIo = { out: (t) => process.stdout.write(t) }): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    dialect: { type: 'string' }, enhanced: { type: 'boolean' }, streaming: { type: 'boolean' }, 'no-streaming': { type: 'boolean' }, dir: { type: 'string' }, seed: { type: 'string' },
  }, help);
  if (values.help) { io.out(`${help}\n`); return 0; }
  if (positionals.length !== 1) throw new UsageError(`give one scenario id (npx adk-conformance scenarios lists them).\n\n${help}`);
  if (values.streaming && values['no-streaming']) throw new UsageError('--streaming and --no-streaming contradict each other; give one.');
  const id = positionals[0] as string;
  const k = generatedIndex(id);
  if (values.seed !== undefined && k === undefined) throw new UsageError(`--seed goes with a generated run (${generatedIdPrefix}K); ${id} is a scenario file and has no seed.`);
  // A generated run is the K-th of the batch drawn from the seed: drawing K+1 gives the same K-th run as the run's batch (harness/generated.ts).
  const scenarios = k !== undefined ? generatedBatch(k + 1, resolveSeed(values.seed, packageVersion()).seed).scenarios : loadScenarios(values.dir ?? defaultScenariosDir).scenarios;
  const scenario = scenarios.find((s) => s.id === id);
  if (!scenario) {
    const near = nearest(id, scenarios.map((s) => s.id));
    throw new UsageError(`no scenario '${id}'${near ? ` (did you mean '${near}'?)` : ''}; npx adk-conformance scenarios lists them.`);
  }
  if (scenario.upstream.kind === 'anthropic-turn') throw new UsageError(`${id} is an Anthropic turn for the block-index normaliser, not an ADK stream: the normaliser's input is described in docs/harness-normalizer.md.`);
  const own = scenarioDialects(scenario);
  const dialect = values.dialect === undefined ? own[0] : resolveDialect(values.dialect);
  if (!dialect) throw new UsageError(`--dialect must be one of ${describeDialects()}, got '${values.dialect}'.`);
  if (!own.includes(dialect)) throw new UsageError(`${id} does not render in ${versionedName(dialect)}; it renders in ${own.map(versionedName).join(', ')} (a scenario pinned to captured bytes renders only in its own).`);
  const streaming = values.streaming ? true : values['no-streaming'] ? false : scenario.request.streaming === true;
  const enhanced = values.enhanced === true || scenario.request.endpoint === '/run_sse_enhanced';
  const { userId, sessionId } = scenario.session;
  const plan = applyFaults(render(scenario, { dialect, streaming, appName: scenario.id, userId, sessionId, ...(enhanced ? { enhanced: true } : {}) }), (scenario.faults ?? []) as Parameters<typeof applyFaults>[1]);
  if (plan.status !== 200) throw new UsageError(`${id} answers HTTP ${plan.status} before any stream (${scenario.upstream.kind} upstream): it has no data lines.`);
  const lines: string[] = [];
  const reader = createSseReader({ onFrame: (f) => lines.push(f.data.replace(/\r\n|\r|\n/g, ' ')) });
  for (const chunk of plan.chunks) reader.feed(chunk.bytes);
  reader.end();
  io.out(lines.map((l) => `${l}\n`).join(''));
  return 0;
}
