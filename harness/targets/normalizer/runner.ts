/**
 * Certifies a block-index normaliser (seed 003; requirements BLK-*): for every scenario of the
 * index-reuse family, fetch the turn's input events from the mock, feed them to the
 * implementation (a command on stdio, or a module in process: docs/harness-normalizer.md), and
 * check its output against the harness's own model of seed 003 §3.1 and `scenario.expect.blocks`.
 * A probe adds fast-check generated turns (seed = the run's seed) with their indices computed by
 * that same model, including deltas for unknown indices.
 */
import { availableParallelism } from 'node:os';
import { openSessionPool, type SessionPool } from '../../session.ts';
import { probeStartup, type ProtocolChoice } from '../command-startup.ts';
import { kitModule } from '../../../core/package-root.ts';
import type { Scenario } from '../../../schemas/types.ts';
import { checkNormalizerTurn, normalizerCheckedRequirements } from '../../checks/normalizer/index.ts';
import { mergeOutcomes } from '../../checks/normalizer/outcome.ts';
import type { ExpectedBlockEntry, NormalizerObservation } from '../../checks/normalizer/types.ts';
import type { TimelineEntry } from '../../model.ts';
import { wroteStreamEnd } from '../../checks/normalizer/stream-shape.ts';
import { driveCommand, driveModule, loadNormalizerModule, type NormalizerFactory } from './drive.ts';
import { generateTurns } from './generated.ts';
import { RawLine } from '../../checks/normalizer/expected-model.ts';
import { collectTurnInputs, isNormalizerScenario } from './input.ts';
import type { PartRunner, RunEnv, ScenarioCheck } from '../types.ts';

/** The reference normaliser, certified through the module contract. */
export const referenceNormalizerModule = kitModule('reference-impl/block-normalizer.ts');

export type NormalizerTarget = { command: string; protocol?: ProtocolChoice; startupTimeoutMs?: number } | { module: string };

export type NormalizerRunnerOptions = {
  /** Generated turns in the probe (default: 40 for a module, 6 for a command: one process each). */
  generatedTurns?: number;
};

export const generatedProbeId = 'normalizer-generated-turns';

/** Time left for the implementation once the inputs are in hand: the engine's bound keeps a margin for the checks. */
function implementationBudget(env: RunEnv): number {
  return Math.max(100, Math.floor(env.scenarioTimeoutMs * 0.8));
}

export function createNormalizerRunner(target: NormalizerTarget, options: NormalizerRunnerOptions = {}): PartRunner {
  const isCommand = typeof target === 'object' && target !== null && 'command' in target && typeof target.command === 'string' && target.command.trim() !== '';
  const isModule = typeof target === 'object' && target !== null && 'module' in target && typeof target.module === 'string' && target.module !== '';
  if (!isCommand && !isModule) {
    throw new TypeError(`createNormalizerRunner: target must be {command: "<shell command>"} or {module: "<path to an ES module exporting createBlockNormalizer>"}, got ${JSON.stringify(target)}`);
  }
  const generatedTurns = options.generatedTurns ?? (isCommand ? 6 : 40);
  if (!Number.isInteger(generatedTurns) || generatedTurns < 0) throw new RangeError(`createNormalizerRunner: generatedTurns must be an integer >= 0, got ${generatedTurns}`);
  let factory: NormalizerFactory | undefined;
  // The session form (docs/session-protocol.md): every turn a run of one long-lived process.
  let pool: SessionPool | undefined;
  let startupNote: string | undefined;

  // `hold`: a scenario's turn is held open after its last line, to see output before the end (BLK-FLOW-003).
  const drive = async (inputs: unknown[], env: RunEnv, hold = false): Promise<NormalizerObservation> => {
    if ('command' in target) return driveCommand(target.command, inputs, implementationBudget(env), hold, env.signal, pool?.runChild);
    if (!factory) throw new Error('the normaliser module was not loaded: the engine calls start() before any scenario');
    return driveModule(factory, inputs, implementationBudget(env), env.signal, hold);
  };

  async function runScenario(scenario: Scenario, env: RunEnv): Promise<ScenarioCheck> {
    const t0 = performance.now();
    const now = () => Math.round(performance.now() - t0);
    const { inputs, timeline } = await collectTurnInputs(scenario, env.mockUrl, env.signal, now);
    if (startupNote) timeline.unshift({ t: 0, kind: 'note', summary: startupNote });
    const obs = await drive(inputs, env, true);
    timeline.push(...observationTimeline(obs, now));
    const expectBlocks = (scenario.expect as { blocks?: ExpectedBlockEntry[] }).blocks;
    const outcomes = checkNormalizerTurn({ scenario: scenario.id, pathPrefix: '', label: scenario.id, ...(expectBlocks ? { expectBlocks } : {}) }, obs);
    const fatal = fatalOf(obs);
    return { outcomes, timeline, ...(fatal ? { fatal } : {}) };
  }

  async function runGenerated(env: RunEnv): Promise<ScenarioCheck> {
    const t0 = performance.now();
    const now = () => Math.round(performance.now() - t0);
    const scenario = `probe:${generatedProbeId}`;
    const turns = generateTurns(env.seed, generatedTurns, { lines: 'command' in target });
    const timeline: TimelineEntry[] = [{ t: 0, kind: 'note', summary: `${turns.length} generated turns, fast-check seed ${env.seed}` }];
    const outcomes = [];
    let shown = 0;
    for (const [k, inputs] of turns.entries()) {
      if (env.signal.aborted) break;
      const obs = await drive(inputs, env);
      const turnOutcomes = checkNormalizerTurn({ scenario, pathPrefix: `turn[${k}] `, label: `generated turn ${k} of seed ${env.seed}` }, obs);
      const failed = turnOutcomes.filter((o) => o.status === 'failed').map((o) => o.requirement);
      // The input of the first failing turns, as NDJSON a team can pipe into its command.
      const showInput = failed.length > 0 && shown++ < 3;
      timeline.push({ t: now(), kind: failed.length ? 'event' : 'note', summary: `turn ${k}: ${inputs.length} input lines, ${obs.lines.length} output lines${failed.length ? `; failed ${failed.join(', ')}` : ''}${showInput ? `; input:\n${inputs.map((i) => (i instanceof RawLine ? i.text : JSON.stringify(i))).join('\n').slice(0, 4000)}` : ''}` });
      outcomes.push(...turnOutcomes);
      // A turn that hung used most of the time bound; the next one would only hang as well.
      if (obs.termination.kind === 'timed-out') break;
    }
    return { outcomes: mergeOutcomes(scenario, outcomes), timeline };
  }

  return {
    part: 'normalizer',
    description: 'command' in target ? `normaliser command \`${target.command}\`` : `normaliser module ${target.module}`,
    applies: isNormalizerScenario,
    runScenario,
    // Generated turns are fed at once (no input held open): BLK-FLOW-003 is the scenarios'.
    probes: generatedTurns > 0 ? [{ id: generatedProbeId, requirements: normalizerCheckedRequirements.filter((id) => id !== 'BLK-FLOW-003'), run: runGenerated, shared: true }] : [],
    async start(env) {
      if ('module' in target) { factory = await loadNormalizerModule(target.module); return; }
      const protocol = target.protocol ?? 'auto';
      if (protocol === 'one-shot') return;
      const boundMs = target.startupTimeoutMs ?? Math.min(30_000, env.scenarioTimeoutMs);
      const startup = await probeStartup(target.command, boundMs, {}, undefined, { part: 'normalizer' });
      if (protocol === 'session' || (startup.known && startup.session)) {
        pool = openSessionPool({ command: target.command, part: 'normalizer', startupTimeoutMs: boundMs, processes: 2 * Math.max(1, availableParallelism()), killGraceMs: 500 });
        startupNote = startup.how;
      }
    },
    async stop() { await pool?.close(); },
  };
}

const clip = (s: string, n = 120): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Whether the output already holds the turn's stream_end: a timeout after it is a hang after the output, not a cut-off output. */

/**
 * What makes a normaliser unusable whatever the turn (the engine's fail fast, as for the
 * transformer's fatalOf): it could not be started, hangs (did not end within its bound, with or
 * without having written its output), exited non-zero or threw before writing a line, or wrote
 * only lines that are not JSON. A wrong event is a finding, never fatal.
 */
export function fatalOf(obs: NormalizerObservation): { signature: string; reason: string } | undefined {
  const t = obs.termination;
  if (t.kind === 'spawn-failed') return { signature: 'spawn', reason: `could not be started (${clip(t.message)})` };
  if (t.kind === 'timed-out') {
    return { signature: 'hangs', reason: wroteStreamEnd(obs) ? `hangs after its output: it wrote stream_end but did not exit within ${t.afterMs} ms of its input ending` : `hangs: it did not finish within ${t.afterMs} ms after its input ended` };
  }
  if (obs.lines.some((l) => l.parseError === undefined)) return undefined;
  if (t.kind === 'threw') return { signature: 'throws', reason: `threw before emitting an event (${clip(t.message)})` };
  if (t.kind === 'exit') {
    const stderr = obs.stderr?.trim() ? ` (stderr: ${clip(obs.stderr.trim().split('\n').pop() ?? '')})` : '';
    return { signature: t.signal ? `killed ${t.signal}` : `exit ${t.code}`, reason: `${t.signal ? `was killed by ${t.signal}` : `exited with status ${t.code}`} before writing a line${stderr}` };
  }
  if (obs.lines.length > 0) return { signature: 'garbage', reason: `wrote only lines that are not JSON (first: ${clip(obs.lines[0]?.parseError ?? '')})` };
  return undefined;
}

function observationTimeline(obs: NormalizerObservation, now: () => number): TimelineEntry[] {
  const t = now();
  const entries: TimelineEntry[] = [{ t, kind: 'note', summary: `fed ${obs.inputs.length} input events` }];
  for (const line of obs.lines.slice(0, 200)) entries.push({ t, kind: 'event', summary: line.text.slice(0, 300) });
  if (obs.lines.length > 200) entries.push({ t, kind: 'note', summary: `${obs.lines.length - 200} more output lines` });
  if (obs.stderr) entries.push({ t, kind: 'stderr', summary: obs.stderr.slice(0, 500) });
  entries.push({ t, kind: obs.termination.kind === 'ended' ? 'end' : 'exit', summary: JSON.stringify(obs.termination) });
  return entries;
}
