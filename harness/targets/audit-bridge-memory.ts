/**
 * The AUD-MEM-001 workload: thousands of invocations through one bridge, counted in entries
 * (the entry count and trail lengths), never in time. Sequential invocations must leave nothing
 * behind each time one ends; concurrent ones, more than the bound at once, some ended by a final
 * answer, some by a model error, some cut (the caller clears them), must never exceed the bound and
 * must leave nothing once all ended. Deterministic for a seed.
 *
 * No decision depends on an answer, so operations are pipelined (up to `window` outstanding) and
 * each answer is folded into the phase in request order: a bridge in a child process answers
 * about 100,000 operations in seconds instead of paying a round trip each.
 */
import type { MemoryBound, MemoryObservation, MemoryPhase } from '../checks/audit-bridge/memory.ts';
import { BridgeFailure } from './audit-bridge-process.ts';
import type { BridgeHandle, EntryCount } from './audit-bridge-backend.ts';

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
const window = 256;

export type MemoryWorkloadOptions = { sequential?: number; concurrent?: number; open?: number };

export async function runMemoryWorkload(create: (opts: MemoryBound) => Promise<BridgeHandle>, seed: number, options: MemoryWorkloadOptions = {}): Promise<MemoryObservation> {
  const random = rng(seed);
  const bound = memoryBound;
  const phases: MemoryPhase[] = [];
  let op = 0;
  let eventId = 0;
  let failure: unknown;
  let inflight: Array<Promise<void>> = [];
  // Every promise gets its handler at once: a rejection is remembered, never left unhandled.
  const track = (p: Promise<unknown>) => { inflight.push(p.then(() => {}, (error: unknown) => { failure ??= error; })); };
  const flush = async (all = false) => {
    if (all || inflight.length >= window) { const batch = inflight; inflight = []; await Promise.all(batch); }
    if (failure !== undefined) throw failure;
  };
  const newPhase = (name: string): MemoryPhase => ({ name, invocations: 0, maxInvocationsHeld: { value: 0, at: 0 }, maxEventsHeld: { value: 0, at: 0 }, maxTrailLength: { value: 0, at: 0 }, afterAllEnded: { invocations: 0, events: 0 } });
  const fold = (p: MemoryPhase, c: EntryCount, at: number) => {
    if (c.invocations > p.maxInvocationsHeld.value) p.maxInvocationsHeld = { value: c.invocations, at };
    if (c.events > p.maxEventsHeld.value) p.maxEventsHeld = { value: c.events, at };
  };
  const sample = (bridge: BridgeHandle, p: MemoryPhase, inv?: string) => {
    const at = ++op;
    const count = bridge.entryCount();
    track(count.then((c) => fold(p, c, at)));
    if (inv === undefined) return;
    // The count and the trail are taken together: a held trail of n events means at least n events
    // and one invocation held, or the entry count is not the bridge's (a stub answering 0).
    track(Promise.all([count, bridge.getAuditTrail(inv)]).then(([c, trail]) => {
      if (trail.length > p.maxTrailLength.value) p.maxTrailLength = { value: trail.length, at };
      if (!p.countBelowTrail && trail.length > 0 && (c.events < trail.length || c.invocations < 1)) p.countBelowTrail = { count: c, trail: trail.length, invocation: inv, at };
    }));
  };
  const record = (bridge: BridgeHandle, inv: string) => track(bridge.record({ event_type: auditTypes[eventId % auditTypes.length]!, event_id: `evt_${++eventId}`, correlation_id: inv, timestamp: '2025-12-27T10:31:00.000Z', agent: 'harness', payload: {} }));
  const finalAnswer = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP', partial: false });
  const modelError = (inv: string) => ({ invocationId: inv, author: 'harness', errorCode: 'MALFORMED_FUNCTION_CALL', errorMessage: 'harness' });
  const partial = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ text: 'par' }] }, partial: true });
  // Events that look final and are not (docs/audit-bridge-contract.md "Cleared on the final event"):
  // a streamed chunk carrying the finish reason, a thought, text beside a call.
  const notFinal: Record<string, (inv: string) => Record<string, unknown>> = {
    'a partial chunk with a finishReason': (inv) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ text: 'par' }] }, finishReason: 'STOP', partial: true }),
    'a thought with a finishReason': (inv) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ text: 'hmm', thought: true }] }, finishReason: 'STOP', partial: false }),
    'text beside a functionCall': (inv) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ text: 'calling' }, { functionCall: { id: 'c1', name: 'tool', args: {} } }] }, finishReason: 'STOP', partial: false }),
  };
  // Final events that carry no text answer: the agent's turn ends anyway.
  const skipSummarization = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'tool', response: {} } }] }, actions: { skipSummarization: true } });
  const longRunning = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ functionCall: { id: 'c2', name: 'approve', args: {} } }] }, longRunningToolIds: ['c2'], partial: false });
  const end = (bridge: BridgeHandle, inv: string) => {
    const r = random();
    if (r < 0.6) track(bridge.observeEvent(finalAnswer(inv)));
    else if (r < 0.7) track(bridge.observeEvent(skipSummarization(inv)));
    else if (r < 0.8) track(bridge.observeEvent(longRunning(inv)));
    else if (r < 0.9) track(bridge.observeEvent(modelError(inv)));
    else track(bridge.clearInvocation(inv));
  };
  const opened: BridgeHandle[] = [];
  const open = async () => { const b = await create(bound); opened.push(b); return b; };

  try {
    // Phase 1: one invocation at a time; each must leave nothing once it ended.
    const bridge = await open();
    const p = newPhase('sequential');
    for (let i = 0; i < (options.sequential ?? 2000); i++) {
      const inv = `seq-${seed}-${i}`;
      const events = 1 + Math.floor(random() * 30);
      for (let e = 0; e < events; e++) { record(bridge, inv); if (e % 8 === 0) sample(bridge, p, inv); }
      track(bridge.observeEvent(partial(inv)));
      sample(bridge, p, inv);
      // The trail right before and right after an event that is not final: answers come in request
      // order, so the two are the trail around that one event (what the bridge stored, whatever it is).
      const kinds = Object.keys(notFinal);
      const kind = kinds[i % kinds.length]!;
      const before = bridge.getAuditTrail(inv);
      track(before);
      track(bridge.observeEvent(notFinal[kind]!(inv)));
      const after = bridge.getAuditTrail(inv);
      const at = op;
      track(Promise.all([before, after]).then(([b, a]) => { if (a.length < b.length && !p.clearedEarly) p.clearedEarly = { invocation: inv, event: kind, trail: a.length, recorded: b.length, at }; }));
      end(bridge, inv);
      p.invocations++;
      const idleAt = op;
      track(bridge.entryCount().then((c) => { if ((c.invocations > 0 || c.events > 0) && !p.maxHeldWhenIdle) p.maxHeldWhenIdle = { ...c, at: idleAt }; }));
      await flush();
    }
    await flush(true);
    p.afterAllEnded = await bridge.entryCount();
    phases.push(p);

    // Phase 2: more invocations open at once than the bound allows.
    const shared = await open();
    const q = newPhase('concurrent');
    const live: string[] = [];
    const target = options.concurrent ?? 3000;
    const width = options.open ?? 80;
    let started = 0;
    while (started < target || live.length > 0) {
      const r = random();
      if (started < target && (live.length < width && r < 0.35)) {
        const inv = `conc-${seed}-${started++}`;
        live.push(inv);
        record(shared, inv);
        sample(shared, q, inv);
      } else if (live.length > 0 && (r < 0.85 || started >= target)) {
        const inv = live[Math.floor(random() * live.length)]!;
        record(shared, inv);
        sample(shared, q, inv);
      }
      if (live.length > 0 && (random() < 0.12 || (started >= target && random() < 0.3))) {
        const at = Math.floor(random() * live.length);
        const inv = live[at]!;
        live.splice(at, 1);
        end(shared, inv);
        q.invocations++;
        sample(shared, q);
      }
      await flush();
    }
    await flush(true);
    q.afterAllEnded = await shared.entryCount();
    phases.push(q);
    return { bound, phases };
  } catch (error) {
    await Promise.all(inflight);
    const f = error instanceof BridgeFailure ? error : undefined;
    return { bound, phases, failure: error instanceof Error ? error.message : String(error), ...(f ? { failureKind: f.kind } : {}) };
  } finally {
    await Promise.all(opened.map((b) => b.close()));
  }
}
