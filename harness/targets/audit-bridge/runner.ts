/**
 * Certifies the audit bridge (seed 000 §2.2A; requirements AUD-*): the reference by default, or a
 * team's bridge through the command contract (`--audit-bridge-cmd`, docs/audit-bridge-contract.md)
 * or the module contract (`--audit-bridge-module`), of the kit's shape or seed 000 §2.2A's
 * (shape.ts); all are driven through one BridgeHandle (backend.ts), so
 * the same checks judge each.
 *
 * AUD-TRAIL-003, AUD-KEY-001, AUD-ORDER-001 and AUD-CLEAR-001, for every scenario whose run
 * script records audit events:
 * 1. (the reference only) the mock's `POST /run_sse_enhanced`, which injects the trail with the
 *    reference bridge: it is the reference's own wiring, nothing of a team's bridge;
 * 2. the bridge under test: the harness plays the enhanced endpoint over the mock's plain
 *    `/run_sse` frames (record each step's audits before its frames, inject the invocation's trail
 *    into each event, let the bridge observe the event after it when it has a clearing step, clear
 *    the invocation when the stream ends), while a decoy invocation records into the same bridge,
 *    as another session's run would.
 * Both are compared with the harness's own model (checks/audit-bridge/expected-trail.ts).
 *
 * AUD-MEM-002: a probe drives thousands of invocations through the bridge and counts entries.
 * AUD-EVICT-001, AUD-TRIM-001: a probe fills a bridge to its two bounds and looks at what it dropped.
 */
import type { Scenario } from '../../../schemas/types.ts';
import { checkEviction, checkTrim } from '../../checks/audit-bridge/bounds.ts';
import { checkTrailClearing } from '../../checks/audit-bridge/clearing.ts';
import { asRecorded, byCorrelation, expectedTrails, invocationOf, type AuditRecordLike } from '../../checks/audit-bridge/expected-trail.ts';
import { checkTrailKey } from '../../checks/audit-bridge/key.ts';
import { checkBridgeMemory } from '../../checks/audit-bridge/memory.ts';
import { checkTrailOrder } from '../../checks/audit-bridge/order.ts';
import { checkAuditTrail } from '../../checks/audit-bridge/trail.ts';
import type { CheckOutcome, TimelineEntry } from '../../model.ts';
import { referenceAuditBridgeModule } from './module.ts';
import { commandBackend, moduleBackend, type BridgeBackend, type BridgeHandle } from './backend.ts';
import { runBoundsWorkload } from './bounds.ts';
import { runMemoryWorkload } from './memory.ts';
import { BridgeFailure } from './process.ts';
import { canRecord, describeShape, recordedForm } from './shape.ts';
import { pinnedInvocationId, runSteps, stepFrameStarts } from './steps.ts';
import { runScenarioOnMock } from '../mock-sse.ts';
import type { PartRunner, RunEnv, ScenarioCheck } from '../types.ts';

/** `{}` is the reference (in process); otherwise a team's bridge by command or by module. */
export type AuditBridgeTarget = { module?: string } | { command: string };

export type AuditBridgeRunnerOptions = {
  /** Bound for one answer of a bridge (default: the scenario bound / 6, between 1 and 5 s). */
  answerMs?: number;
};

export const memoryProbeId = 'audit-bridge-memory';
export const boundsProbeId = 'audit-bridge-bounds';

/**
 * Whether the bridge filed audit events under their correlation_id: asked for a correlation id that
 * is no event's invocation_id, it answered events recorded with it. Only then is a trail the
 * correlation-first model explains AUD-KEY-001's finding (an empty trail alone is explained by many defects).
 */
function filedByCorrelation(threadTrails: Map<string, unknown[]>): boolean {
  return [...threadTrails].some(([id, trail]) => trail.some((e) => {
    const r = (typeof e === 'object' && e !== null ? e : {}) as AuditRecordLike;
    return r.correlation_id === id && invocationOf(r) !== id;
  }));
}

/** The per-scenario trail requirements, judged on one path's frames against the harness's model. */
function judgeTrails(scenario: string, label: string, frames: unknown[], audits: AuditRecordLike[][], starts: number[], runInvocationId: string, threadTrails = new Map<string, unknown[]>()): CheckOutcome[] {
  const want = expectedTrails(audits, starts, frames, runInvocationId);
  const keyed = expectedTrails(audits, starts, frames, runInvocationId, byCorrelation);
  const judged = checkAuditTrail(scenario, label, frames, want, filedByCorrelation(threadTrails) ? keyed : undefined);
  return [judged.outcome, checkTrailKey(scenario, label, want, keyed, judged), checkTrailOrder(scenario, label, frames, want, judged), checkTrailClearing(scenario, label, frames, want, judged.starts)];
}

function parseFrame(data: string): unknown {
  try { return JSON.parse(data); } catch { return data; }
}

function stepAuditsOf(scenario: Scenario): AuditRecordLike[][] {
  return runSteps(scenario).map((step) => (Array.isArray(step.audit) ? step.audit : []));
}

export function recordsAudit(scenario: Scenario): boolean {
  if (scenario.upstream.kind !== 'run') return false;
  return scenario.request.endpoint === '/run_sse_enhanced' || stepAuditsOf(scenario).some((a) => a.length > 0);
}

type Played = {
  frames: unknown[];
  /** What the bridge answered, when the stream was over, for each correlation id that is not its event's invocation_id (a session's thread). */
  threadTrails?: Map<string, unknown[]>;
  failure?: BridgeFailure;
};

/** The audits of each step as the endpoint records them into this bridge: its shape's recorders only. */
function recordedAudits(audits: AuditRecordLike[][], runInvocationId: string, bridge: BridgeHandle): AuditRecordLike[][] {
  return audits.map((step) => step.filter((e) => canRecord(bridge.shape, e.event_type)).map((e) => recordedForm(bridge.shape, asRecorded(e, runInvocationId))));
}

/**
 * The enhanced endpoint, played by the harness around the bridge under test. Returns the frames
 * with `_audit_metadata` injected, or the bridge's failure (an exception, an error answer, a
 * process that hung, exited or answered garbage). `audits` are already in their recorded form.
 */
async function enhance(bridge: BridgeHandle, frames: unknown[], audits: AuditRecordLike[][], starts: number[], runInvocationId: string): Promise<Played> {
  const out: unknown[] = [];
  try {
    const decoy = `${runInvocationId}-decoy-session`;
    const invocations = new Set<string>([decoy]);
    let next = 0;
    let decoys = 0;
    for (const [k, frame] of frames.entries()) {
      while (next < audits.length && starts[next]! <= k) {
        for (const event of audits[next]!) {
          await bridge.record(structuredClone(event));
          const id = invocationOf(event);
          if (id !== undefined) invocations.add(id);
          // Another session's invocation records in between, as concurrent runs do.
          await bridge.record(recordedForm(bridge.shape, { event_type: bridge.shape === 'kit' ? 'reasoning_step' : 'tool_invocation', event_id: `decoy_${++decoys}`, correlation_id: decoy, agent: 'decoy', payload: {} }));
        }
        next++;
      }
      const e = typeof frame === 'object' && frame !== null && !Array.isArray(frame) ? (frame as Record<string, unknown>) : undefined;
      if (!e || typeof e.invocationId !== 'string' || e.invocationId === '') { out.push(frame); continue; }
      invocations.add(e.invocationId);
      const enhanced = { ...e, _audit_metadata: await bridge.getAuditTrail(e.invocationId) };
      out.push(enhanced);
      if (bridge.observes) await bridge.observeEvent(enhanced);
    }
    // Asked by thread, as no endpoint would: what the bridge filed there shows how it keys (AUD-KEY-001).
    const threadTrails = new Map<string, unknown[]>();
    for (const event of audits.flat()) {
      const thread = event.correlation_id;
      if (typeof thread === 'string' && thread !== '' && thread !== invocationOf(event) && !threadTrails.has(thread)) threadTrails.set(thread, await bridge.getAuditTrail(thread));
    }
    // The stream ended: the endpoint frees what its invocations recorded, whatever ended them.
    for (const id of invocations) await bridge.clearInvocation(id);
    return { frames: out, threadTrails };
  } catch (error) {
    return { frames: out, failure: error instanceof BridgeFailure ? error : new BridgeFailure('refused', error instanceof Error ? error.message : String(error)) };
  }
}

/** The finding code of a bridge failure: `bridge-threw` for an exception or error answer (the in-process name), else its kind. */
function failureCode(f: BridgeFailure): string {
  if (f.kind === 'refused') return 'bridge-threw';
  return f.kind.startsWith('answer-') ? f.kind : `bridge-${f.kind}`;
}

/** Failures that say the bridge cannot run any scenario (the engine stops the part after a few). */
const fatalKinds = new Set(['not-started', 'exited', 'hung', 'answer-malformed', 'answer-out-of-order']);

export function createAuditBridgeRunner(target: AuditBridgeTarget = {}, options: AuditBridgeRunnerOptions = {}): PartRunner {
  const isCommand = typeof target === 'object' && target !== null && 'command' in target;
  const badModule = !isCommand && typeof target === 'object' && target !== null && 'module' in target && (typeof target.module !== 'string' || target.module === '');
  if (typeof target !== 'object' || target === null || badModule || (isCommand && (typeof target.command !== 'string' || target.command.trim() === ''))) {
    throw new TypeError(`createAuditBridgeRunner: target must be {} (the reference), {module: "<path to an ES module exporting createAuditBridge>"} or {command: "<a bridge speaking docs/audit-bridge-contract.md>"}, got ${JSON.stringify(target)}`);
  }
  const reference = !isCommand && (target as { module?: string }).module === undefined;
  const backend: BridgeBackend = isCommand ? commandBackend((target as { command: string }).command) : moduleBackend((target as { module?: string }).module ?? referenceAuditBridgeModule);
  const answerMs = (env: { scenarioTimeoutMs: number }) => options.answerMs ?? Math.min(5000, Math.max(1000, Math.round(env.scenarioTimeoutMs / 6)));

  async function runScenario(scenario: Scenario, env: RunEnv): Promise<ScenarioCheck> {
    const t0 = performance.now();
    const timeline: TimelineEntry[] = [];
    const note = (kind: TimelineEntry['kind'], summary: string) => timeline.push({ t: Math.round(performance.now() - t0), kind, summary });
    const audits = stepAuditsOf(scenario);
    const outcomes: CheckOutcome[] = [];
    let runInvocationId: string | undefined;
    const firstInvocation = (frames: unknown[]) => {
      const id = frames.map((f) => (f as { invocationId?: unknown })?.invocationId).find((i) => typeof i === 'string');
      return pinnedInvocationId(scenario) ?? (typeof id === 'string' ? id : `${scenario.id}-invocation`);
    };

    if (reference) {
      // Path 1: the mock's /run_sse_enhanced.
      note('request', 'POST /run_sse_enhanced');
      const enhanced = await runScenarioOnMock(env.mockUrl, scenario, '/run_sse_enhanced', 'aud', env.signal);
      const framesA = enhanced.frames.map((f) => parseFrame(f.data));
      for (const f of enhanced.frames) note('frame', f.data.slice(0, 300));
      const steps = stepFrameStarts(scenario, enhanced);
      const eventFrames = framesA.filter((f) => f !== '[DONE]').length;
      if (eventFrames !== steps.frames) throw new Error(`scenario ${scenario.id}: the mock wrote ${eventFrames} frames besides [DONE], the harness renders ${steps.frames}; the step boundaries cannot be placed`);
      runInvocationId = firstInvocation(framesA);
      outcomes.push(...judgeTrails(scenario.id, `${scenario.id} via the mock's /run_sse_enhanced`, framesA, audits, steps.starts, runInvocationId));
    }

    // Path 2: the bridge under test over the plain /run_sse frames.
    note('request', `POST /run_sse (${backend.label})`);
    const plain = await runScenarioOnMock(env.mockUrl, scenario, '/run_sse', 'aud', env.signal);
    const framesB = plain.frames.map((f) => parseFrame(f.data));
    const steps = stepFrameStarts(scenario, plain);
    if (framesB.length !== steps.frames) throw new Error(`scenario ${scenario.id}: the mock's /run_sse wrote ${framesB.length} frames, the harness renders ${steps.frames}`);
    runInvocationId ??= firstInvocation(framesB);
    const label = `${scenario.id} through ${backend.label}`;
    let bridge: BridgeHandle | undefined;
    let played: Played;
    let recorded: AuditRecordLike[][] = [];
    try {
      bridge = await backend.open(undefined, { answerMs: answerMs(env), signal: env.signal });
      recorded = recordedAudits(audits, runInvocationId, bridge);
      note('note', `the bridge exposes ${describeShape(bridge.shape, bridge.observes)}`);
      const without = audits.flat().filter((e) => !canRecord(bridge!.shape, e.event_type)).map((e) => String(e.event_type));
      if (without.length > 0) note('note', `not recorded: ${without.length} audit event${without.length === 1 ? '' : 's'} of types the bridge has no recorder for (${[...new Set(without)].join(', ')}); their trail is judged without them`);
      played = await enhance(bridge, framesB, recorded, steps.starts, runInvocationId);
    } catch (error) {
      played = { frames: [], failure: error instanceof BridgeFailure ? error : new BridgeFailure('refused', (error as Error).message) };
    } finally {
      await bridge?.close();
    }
    const failure = played.failure;
    if (failure !== undefined) {
      note('note', `${failure.kind}: ${failure.message}`);
      outcomes.push({ requirement: 'AUD-TRAIL-003', scenario: scenario.id, status: 'failed', findings: [{ requirement: 'AUD-TRAIL-003', code: failureCode(failure), path: `frame[${played.frames.length}]`, message: `${label}: ${failure.kind === 'refused' ? `the bridge threw: ${failure.message}` : failure.message}`, expected: 'every operation answered (docs/audit-bridge-contract.md)', actual: failure.message }] });
      for (const requirement of ['AUD-KEY-001', 'AUD-ORDER-001', 'AUD-CLEAR-001']) outcomes.push({ requirement, scenario: scenario.id, status: 'untested', findings: [], reason: `${label}: the bridge failed before the stream could be judged (${failure.kind})` });
      const fatal = played.frames.length === 0 && fatalKinds.has(failure.kind) ? { fatal: { signature: `audit-bridge:${failure.kind}`, reason: `${failure.kind === 'hung' ? 'did not answer' : failure.kind === 'not-started' ? 'did not start' : failure.kind.startsWith('answer-') ? 'answered outside the contract' : 'exited'} (${failure.message.slice(0, 200)})` } } : {};
      return { outcomes, timeline, ...fatal };
    }
    for (const f of played.frames) note('event', JSON.stringify(f).slice(0, 300));
    outcomes.push(...judgeTrails(scenario.id, label, played.frames, recorded, steps.starts, runInvocationId, played.threadTrails));
    return { outcomes, timeline };
  }

  async function runMemoryProbe(env: RunEnv): Promise<ScenarioCheck> {
    const t0 = performance.now();
    const observation = await runMemoryWorkload((bound) => backend.open(bound, { answerMs: answerMs(env), signal: env.signal }), env.seed);
    const timeline: TimelineEntry[] = [
      { t: 0, kind: 'note', summary: `${observation.shape === 'kit' ? `bound: ${JSON.stringify(observation.bound)}` : 'seed 000 §2.2A\'s shape: no bound, no count; judged through get_audit_trail'}; workload seed ${env.seed}; ${backend.label}` },
      ...observation.phases.map((p) => ({ t: Math.round(performance.now() - t0), kind: 'note' as const, summary: `${p.name}: ${p.invocations} invocations; ${observation.shape === 'kit' ? `most held ${p.maxInvocationsHeld.value} invocations, ${p.maxEventsHeld.value} events, ` : ''}${p.maxTrailLength.value} per trail at most; once all ended ${observation.shape === 'kit' ? `${JSON.stringify(p.afterAllEnded)} held, ` : ''}${p.trailsAfterEnd ? `${p.trailsAfterEnd.holding} of ${p.trailsAfterEnd.asked} trails still holding events` : 'trails not asked'}` })),
      ...(observation.failure ? [{ t: Math.round(performance.now() - t0), kind: 'note' as const, summary: `failed: ${observation.failure}` }] : []),
    ];
    return { outcomes: [checkBridgeMemory(`probe:${memoryProbeId}`, observation)], timeline };
  }

  async function runBoundsProbe(env: RunEnv): Promise<ScenarioCheck> {
    const t0 = performance.now();
    const obs = await runBoundsWorkload((bound) => backend.open(bound, { answerMs: answerMs(env), signal: env.signal }), env.seed);
    const timeline: TimelineEntry[] = [{ t: 0, kind: 'note', summary: `${obs.shape === 'kit' ? `bound: ${JSON.stringify(obs.bound)}` : 'seed 000 §2.2A\'s shape: no bound, nothing to drop'}; ${backend.label}` }];
    const at = () => Math.round(performance.now() - t0);
    if (obs.eviction) timeline.push({ t: at(), kind: 'note', summary: `eviction: ${obs.eviction.held} of ${obs.eviction.filled} invocations held; trails of ${obs.eviction.touched.id} (recorded to again) ${obs.eviction.touched.trail}, ${obs.eviction.oldest.id} (least recently recorded to) ${obs.eviction.oldest.trail}, ${obs.eviction.fresh.id} (opened last) ${obs.eviction.fresh.trail}` });
    if (obs.trim) timeline.push({ t: at(), kind: 'note', summary: `trim: ${obs.trim.recorded.length} recorded, the trail holds ${obs.trim.trail.length}: ${obs.trim.trail[0] ?? '-'} .. ${obs.trim.trail[obs.trim.trail.length - 1] ?? '-'}` });
    if (obs.failure) timeline.push({ t: at(), kind: 'note', summary: `failed in the ${obs.failure.step} step: ${obs.failure.message}` });
    const scenario = `probe:${boundsProbeId}`;
    return { outcomes: [checkEviction(scenario, obs), checkTrim(scenario, obs)], timeline };
  }

  return {
    part: 'audit-bridge',
    description: isCommand ? `audit bridge command \`${(target as { command: string }).command}\`` : reference ? 'the reference audit bridge (reference-impl/audit-bridge.ts)' : `audit bridge module ${(target as { module: string }).module}`,
    applies: recordsAudit,
    runScenario,
    // It counts entries and reads no clock (each answer has a bound seconds wide), so it runs beside others.
    probes: [
      { id: memoryProbeId, requirements: ['AUD-MEM-002'], run: runMemoryProbe, shared: true },
      { id: boundsProbeId, requirements: ['AUD-EVICT-001', 'AUD-TRIM-001'], run: runBoundsProbe, shared: true },
    ],
    async start() {
      await backend.load();
    },
  };
}
