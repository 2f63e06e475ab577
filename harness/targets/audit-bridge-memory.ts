/**
 * The AUD-MEM-001 workload: thousands of invocations through one bridge, counted in entries
 * (stats() and trail lengths), never in time. Sequential invocations must leave nothing behind
 * each time one ends; concurrent ones, more than the bound at once, some ended by a final answer,
 * some by a model error, some cut (the caller clears them), must never exceed the bound and must
 * leave nothing once all ended. Deterministic for a seed.
 */
import type { MemoryBound, MemoryObservation, MemoryPhase } from '../checks/audit-bridge/memory.ts';
import type { AuditBridgeLike } from './audit-bridge-module.ts';

export const memoryBound: MemoryBound = { maxInvocations: 50, maxEventsPerInvocation: 20 };

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const auditTypes = ['tool_invocation', 'tool_response', 'data_load', 'reasoning_step', 'confidence_calc', 'mcp_fetch', 'tool_error'];

function counts(bridge: AuditBridgeLike): { invocations: number; events: number } {
  const s = bridge.stats() as unknown as Record<string, unknown>;
  if (typeof s?.invocations !== 'number' || typeof s.events !== 'number') throw new Error(`stats() must return numeric invocations and events, got ${JSON.stringify(s)}`);
  return { invocations: s.invocations, events: s.events };
}

export function runMemoryWorkload(create: (opts: MemoryBound) => AuditBridgeLike, seed: number, options: { sequential?: number; concurrent?: number; open?: number } = {}): MemoryObservation {
  const random = rng(seed);
  const bound = memoryBound;
  const phases: MemoryPhase[] = [];
  let op = 0;
  let eventId = 0;
  const newPhase = (name: string): MemoryPhase => ({ name, invocations: 0, maxInvocationsHeld: { value: 0, at: 0 }, maxEventsHeld: { value: 0, at: 0 }, maxTrailLength: { value: 0, at: 0 }, afterAllEnded: { invocations: 0, events: 0 } });
  const sample = (bridge: AuditBridgeLike, p: MemoryPhase, inv?: string) => {
    op++;
    const c = counts(bridge);
    if (c.invocations > p.maxInvocationsHeld.value) p.maxInvocationsHeld = { value: c.invocations, at: op };
    if (c.events > p.maxEventsHeld.value) p.maxEventsHeld = { value: c.events, at: op };
    if (inv !== undefined) {
      const length = bridge.getAuditTrail(inv).length;
      if (length > p.maxTrailLength.value) p.maxTrailLength = { value: length, at: op };
    }
  };
  const record = (bridge: AuditBridgeLike, inv: string) => bridge.record({ event_type: auditTypes[eventId % auditTypes.length]!, event_id: `evt_${++eventId}`, correlation_id: inv, timestamp: '2025-12-27T10:31:00.000Z', agent: 'harness', payload: {} });
  const finalAnswer = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP', partial: false });
  const modelError = (inv: string) => ({ invocationId: inv, author: 'harness', errorCode: 'MALFORMED_FUNCTION_CALL', errorMessage: 'harness' });
  const partial = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ text: 'par' }] }, partial: true });

  try {
    // Phase 1: one invocation at a time; each must leave nothing once it ended.
    const bridge = create(bound);
    const p = newPhase('sequential');
    for (let i = 0; i < (options.sequential ?? 2000); i++) {
      const inv = `seq-${seed}-${i}`;
      const events = 1 + Math.floor(random() * 30);
      for (let e = 0; e < events; e++) { record(bridge, inv); if (e % 8 === 0) sample(bridge, p, inv); }
      bridge.observeEvent(partial(inv));
      sample(bridge, p, inv);
      const end = random();
      if (end < 0.8) bridge.observeEvent(finalAnswer(inv));
      else if (end < 0.9) bridge.observeEvent(modelError(inv));
      else bridge.clearInvocation(inv);
      p.invocations++;
      const c = counts(bridge);
      if ((c.invocations > 0 || c.events > 0) && !p.maxHeldWhenIdle) p.maxHeldWhenIdle = { ...c, at: op };
    }
    p.afterAllEnded = counts(bridge);
    phases.push(p);

    // Phase 2: more invocations open at once than the bound allows.
    const shared = create(bound);
    const q = newPhase('concurrent');
    const open: string[] = [];
    const target = options.concurrent ?? 3000;
    const width = options.open ?? 80;
    let started = 0;
    while (started < target || open.length > 0) {
      const r = random();
      if (started < target && (open.length < width && r < 0.35)) {
        const inv = `conc-${seed}-${started++}`;
        open.push(inv);
        record(shared, inv);
        sample(shared, q, inv);
      } else if (open.length > 0 && (r < 0.85 || started >= target)) {
        const inv = open[Math.floor(random() * open.length)]!;
        record(shared, inv);
        sample(shared, q, inv);
      }
      if (open.length > 0 && (random() < 0.12 || (started >= target && random() < 0.3))) {
        const at = Math.floor(random() * open.length);
        const inv = open[at]!;
        open.splice(at, 1);
        const end = random();
        if (end < 0.8) shared.observeEvent(finalAnswer(inv));
        else if (end < 0.9) shared.observeEvent(modelError(inv));
        else shared.clearInvocation(inv);
        q.invocations++;
        sample(shared, q);
      }
    }
    q.afterAllEnded = counts(shared);
    phases.push(q);
    return { bound, phases };
  } catch (error) {
    return { bound, phases, failure: error instanceof Error ? error.message : String(error) };
  }
}
