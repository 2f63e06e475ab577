/**
 * Certifies the audit bridge (seed 000 §2.2A; requirements AUD-*), reference only: there is no
 * target flag for it, the reference module is the default and mutants are given as modules.
 *
 * AUD-TRAIL-001, for every scenario whose run script records audit events, on two paths:
 * 1. the mock's `POST /run_sse_enhanced`, which injects the trail with the reference bridge;
 * 2. the bridge module in process: the harness plays the enhanced endpoint over the mock's plain
 *    `/run_sse` frames (record each step's audits before its frames, inject
 *    `getAuditTrail(invocationId)` into each event, `observeEvent` after it), while a decoy
 *    invocation records into the same bridge, as another session's run would.
 * Both are compared with the harness's own model (checks/audit-bridge/expected-trail.ts).
 *
 * AUD-MEM-001: a probe drives thousands of invocations through the module and counts entries.
 */
import type { Scenario } from '../../schemas/types.ts';
import { asRecorded, expectedTrails, type AuditRecordLike } from '../checks/audit-bridge/expected-trail.ts';
import { checkBridgeMemory } from '../checks/audit-bridge/memory.ts';
import { checkAuditTrail } from '../checks/audit-bridge/trail.ts';
import type { CheckOutcome, TimelineEntry } from '../model.ts';
import { loadAuditBridgeModule, referenceAuditBridgeModule, type AuditBridgeFactory } from './audit-bridge-module.ts';
import { runMemoryWorkload } from './audit-bridge-memory.ts';
import { pinnedInvocationId, runSteps, stepFrameStarts } from './audit-bridge-steps.ts';
import { runScenarioOnMock } from './mock-sse.ts';
import type { PartRunner, RunEnv, ScenarioCheck } from './types.ts';

export type AuditBridgeTarget = { module?: string };

export const memoryProbeId = 'audit-bridge-memory';

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

/**
 * The enhanced endpoint, played by the harness around the bridge under test. Returns the frames
 * with `_audit_metadata` injected, or the bridge's exception as a failure.
 */
function enhanceInProcess(factory: AuditBridgeFactory, frames: unknown[], audits: AuditRecordLike[][], starts: number[], runInvocationId: string): { frames: unknown[]; failure?: string } {
  const out: unknown[] = [];
  try {
    const bridge = factory();
    const decoy = `${runInvocationId}-decoy-session`;
    let next = 0;
    let decoys = 0;
    for (const [k, frame] of frames.entries()) {
      while (next < audits.length && starts[next]! <= k) {
        for (const event of audits[next]!) {
          bridge.record(structuredClone(asRecorded(event, runInvocationId)) as AuditRecordLike & { event_type: string });
          // Another session's invocation records in between, as concurrent runs do.
          bridge.record({ event_type: 'reasoning_step', event_id: `decoy_${++decoys}`, correlation_id: decoy, agent: 'decoy', payload: {} });
        }
        next++;
      }
      const e = typeof frame === 'object' && frame !== null && !Array.isArray(frame) ? (frame as Record<string, unknown>) : undefined;
      if (!e || typeof e.invocationId !== 'string' || e.invocationId === '') { out.push(frame); continue; }
      const enhanced = { ...e, _audit_metadata: structuredClone(bridge.getAuditTrail(e.invocationId)) };
      out.push(enhanced);
      bridge.observeEvent(enhanced);
    }
    return { frames: out };
  } catch (error) {
    return { frames: out, failure: error instanceof Error ? error.message : String(error) };
  }
}

export function createAuditBridgeRunner(target: AuditBridgeTarget = {}): PartRunner {
  if (typeof target !== 'object' || target === null || (target.module !== undefined && (typeof target.module !== 'string' || target.module === ''))) {
    throw new TypeError(`createAuditBridgeRunner: target must be {} (the reference) or {module: "<path to an ES module exporting createAuditBridge>"}, got ${JSON.stringify(target)}`);
  }
  const modulePath = target.module ?? referenceAuditBridgeModule;
  let factory: AuditBridgeFactory | undefined;
  const loaded = (): AuditBridgeFactory => {
    if (!factory) throw new Error('the audit bridge module was not loaded: the engine calls start() before any scenario');
    return factory;
  };

  async function runScenario(scenario: Scenario, env: RunEnv): Promise<ScenarioCheck> {
    const t0 = performance.now();
    const timeline: TimelineEntry[] = [];
    const note = (kind: TimelineEntry['kind'], summary: string) => timeline.push({ t: Math.round(performance.now() - t0), kind, summary });
    const audits = stepAuditsOf(scenario);
    const outcomes: CheckOutcome[] = [];

    // Path 1: the mock's /run_sse_enhanced.
    note('request', 'POST /run_sse_enhanced');
    const enhanced = await runScenarioOnMock(env.mockUrl, scenario, '/run_sse_enhanced', 'aud', env.signal);
    const framesA = enhanced.frames.map((f) => parseFrame(f.data));
    for (const f of enhanced.frames) note('frame', f.data.slice(0, 300));
    const steps = stepFrameStarts(scenario, enhanced);
    const eventFrames = framesA.filter((f) => f !== '[DONE]').length;
    if (eventFrames !== steps.frames) throw new Error(`scenario ${scenario.id}: the mock wrote ${eventFrames} frames besides [DONE], the harness renders ${steps.frames}; the step boundaries cannot be placed`);
    const firstInvocation = framesA.map((f) => (f as { invocationId?: unknown })?.invocationId).find((id) => typeof id === 'string');
    const runInvocationId = pinnedInvocationId(scenario) ?? (typeof firstInvocation === 'string' ? firstInvocation : `${scenario.id}-invocation`);
    outcomes.push(checkAuditTrail(scenario.id, `${scenario.id} via the mock's /run_sse_enhanced`, framesA, expectedTrails(audits, steps.starts, framesA, runInvocationId)));

    // Path 2: the bridge module in process over the plain /run_sse frames.
    note('request', 'POST /run_sse (bridge in process)');
    const plain = await runScenarioOnMock(env.mockUrl, scenario, '/run_sse', 'aud', env.signal);
    const framesB = plain.frames.map((f) => parseFrame(f.data));
    if (framesB.length !== steps.frames) throw new Error(`scenario ${scenario.id}: the mock's /run_sse wrote ${framesB.length} frames, the harness renders ${steps.frames}`);
    const played = enhanceInProcess(loaded(), framesB, audits, steps.starts, runInvocationId);
    const label = `${scenario.id} through the bridge module ${modulePath} in process`;
    if (played.failure !== undefined) {
      outcomes.push({ requirement: 'AUD-TRAIL-001', scenario: scenario.id, status: 'failed', findings: [{ requirement: 'AUD-TRAIL-001', code: 'bridge-threw', path: `frame[${played.frames.length}]`, message: `${label}: the bridge threw: ${played.failure}`, expected: 'record/getAuditTrail/observeEvent return normally', actual: played.failure }] });
    } else {
      for (const f of played.frames) note('event', JSON.stringify(f).slice(0, 300));
      outcomes.push(checkAuditTrail(scenario.id, label, played.frames, expectedTrails(audits, steps.starts, framesB, runInvocationId)));
    }
    return { outcomes, timeline };
  }

  async function runMemoryProbe(env: RunEnv): Promise<ScenarioCheck> {
    const t0 = performance.now();
    const create = loaded();
    const observation = runMemoryWorkload((bound) => create(bound), env.seed);
    const timeline: TimelineEntry[] = [
      { t: 0, kind: 'note', summary: `bound: ${JSON.stringify(observation.bound)}; workload seed ${env.seed}` },
      ...observation.phases.map((p) => ({ t: Math.round(performance.now() - t0), kind: 'note' as const, summary: `${p.name}: ${p.invocations} invocations; most held ${p.maxInvocationsHeld.value} invocations, ${p.maxEventsHeld.value} events, ${p.maxTrailLength.value} per trail; after all ended ${JSON.stringify(p.afterAllEnded)}` })),
    ];
    return { outcomes: [checkBridgeMemory(`probe:${memoryProbeId}`, observation)], timeline };
  }

  return {
    part: 'audit-bridge',
    description: target.module ? `audit bridge module ${target.module}` : 'the reference audit bridge (reference-impl/audit-bridge.ts)',
    applies: recordsAudit,
    runScenario,
    probes: [{ id: memoryProbeId, requirements: ['AUD-MEM-001'], run: runMemoryProbe }],
    async start() {
      factory = await loadAuditBridgeModule(modulePath);
    },
  };
}
