/**
 * The AUD-MEM-002 workload: thousands of invocations through one bridge, counted in entries (the
 * entry count of a kit-shaped bridge, the trails of any), never in time. Sequential invocations
 * must leave nothing behind each time one ends; concurrent ones, more than the bound at once, must
 * never exceed the bound (kit shape) and must leave nothing once all ended. Every invocation ends
 * the way an enhanced endpoint's stream does: its last event (a final answer, a skipped summary, a
 * long-running call, a model error, or none for a cut stream) goes to the bridge's clearing step
 * when it has one, then the endpoint clears the invocation. Deterministic for a seed.
 *
 * No decision depends on an answer, so operations are pipelined (up to `window` outstanding) and
 * each answer is folded into the phase in request order: a bridge in a child process answers
 * about 100,000 operations in seconds instead of paying a round trip each.
 */
import type { MemoryBound, MemoryObservation, MemoryPhase } from '../../checks/audit-bridge/memory.ts';
import { BridgeFailure } from './process.ts';
import type { BridgeHandle, EntryCount } from './backend.ts';
import { recordedForm, seedRecordedTypes } from './shape.ts';

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

/** The events of `inv` in a trail: another invocation's entries are AUD-TRAIL-003's concern, not memory's. */
function heldFor(trail: unknown[], inv: string): number {
  return trail.filter((e) => {
    const r = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
    return (typeof r.invocation_id === 'string' && r.invocation_id !== '' ? r.invocation_id : r.correlation_id) === inv;
  }).length;
}

const kitTypes = ['tool_invocation', 'tool_response', 'data_load', 'reasoning_step', 'confidence_calc', 'mcp_fetch', 'tool_error'];
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
  // What was recorded for each open invocation, at the moment of each request (answers come in request order).
  const recorded = new Map<string, number>();
  const sample = (bridge: BridgeHandle, p: MemoryPhase, inv?: string) => {
    const at = ++op;
    const count = bridge.shape === 'kit' ? bridge.entryCount() : undefined;
    if (count) track(count.then((c) => fold(p, c, at)));
    if (inv === undefined) return;
    const held = recorded.get(inv) ?? 0;
    const trail = bridge.getAuditTrail(inv, true);
    track(trail.then((t) => {
      if (t.length > p.maxTrailLength.value) p.maxTrailLength = { value: t.length, at };
      const own = heldFor(t, inv);
      if (!p.trailAboveRecorded && own > held) p.trailAboveRecorded = { invocation: inv, trail: own, recorded: held, at };
    }));
    // The count and the trail are taken together: a held trail of n events means at least n events
    // and one invocation held, or the entry count is not the bridge's (a stub answering 0).
    if (count) {
      track(Promise.all([count, trail]).then(([c, t]) => {
        if (!p.countBelowTrail && t.length > 0 && (c.events < t.length || c.invocations < 1)) p.countBelowTrail = { count: c, trail: t.length, invocation: inv, at };
      }));
    }
  };
  const record = (bridge: BridgeHandle, inv: string) => {
    const types = bridge.shape === 'kit' ? kitTypes : seedRecordedTypes;
    recorded.set(inv, (recorded.get(inv) ?? 0) + 1);
    track(bridge.record(recordedForm(bridge.shape, { event_type: types[eventId % types.length]!, event_id: `evt_${++eventId}`, correlation_id: inv, timestamp: '2025-12-27T10:31:00.000Z', agent: 'harness', payload: {} }), true));
  };
  const finalAnswer = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ text: 'done' }] }, finishReason: 'STOP', partial: false });
  const modelError = (inv: string) => ({ invocationId: inv, author: 'harness', errorCode: 'MALFORMED_FUNCTION_CALL', errorMessage: 'harness' });
  const partial = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ text: 'par' }] }, partial: true });
  // Final events that carry no text answer: the agent's turn ends anyway.
  const skipSummarization = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'tool', response: {} } }] }, actions: { skipSummarization: true } });
  const longRunning = (inv: string) => ({ invocationId: inv, author: 'harness', content: { role: 'model', parts: [{ functionCall: { id: 'c2', name: 'approve', args: {} } }] }, longRunningToolIds: ['c2'], partial: false });
  const observe = (bridge: BridgeHandle, event: unknown) => { if (bridge.observes) track(bridge.observeEvent(event, true)); };
  /** The stream of `inv` ends: its last event, if any, then the endpoint's clear; the trail must then be empty. */
  const end = (bridge: BridgeHandle, p: MemoryPhase, inv: string) => {
    const r = random();
    if (r < 0.6) observe(bridge, finalAnswer(inv));
    else if (r < 0.7) observe(bridge, skipSummarization(inv));
    else if (r < 0.8) observe(bridge, longRunning(inv));
    else if (r < 0.9) observe(bridge, modelError(inv));
    track(bridge.clearInvocation(inv));
    recorded.delete(inv);
    const at = ++op;
    track(bridge.getAuditTrail(inv, true).then((t) => { const own = heldFor(t, inv); if (own > 0 && !p.heldAfterClear) p.heldAfterClear = { invocation: inv, trail: own, at }; }));
  };
  /** Every invocation of a phase, asked for its trail once all ended. */
  const askAll = async (bridge: BridgeHandle, p: MemoryPhase, ids: string[]) => {
    const end = { asked: ids.length, holding: 0, events: 0 } as NonNullable<MemoryPhase['trailsAfterEnd']>;
    for (const inv of ids) {
      track(bridge.getAuditTrail(inv, true).then((t) => { const own = heldFor(t, inv); if (own > 0) { end.holding++; end.events += own; end.first ??= inv; } }));
      await flush();
    }
    await flush(true);
    p.trailsAfterEnd = end;
    if (bridge.shape === 'kit') p.afterAllEnded = await bridge.entryCount();
  };
  const opened: BridgeHandle[] = [];
  const open = async () => { const b = await create(bound); opened.push(b); return b; };
  let shape: 'kit' | 'seed' = 'kit';

  try {
    // Phase 1: one invocation at a time; each must leave nothing once it ended.
    const bridge = await open();
    shape = bridge.shape;
    const p = newPhase('sequential');
    const sequential: string[] = [];
    for (let i = 0; i < (options.sequential ?? 2000); i++) {
      const inv = `seq-${seed}-${i}`;
      sequential.push(inv);
      const events = 1 + Math.floor(random() * 30);
      for (let e = 0; e < events; e++) { record(bridge, inv); if (e % 8 === 0) sample(bridge, p, inv); }
      observe(bridge, partial(inv));
      sample(bridge, p, inv);
      end(bridge, p, inv);
      p.invocations++;
      if (bridge.shape === 'kit') {
        const idleAt = op;
        track(bridge.entryCount().then((c) => { if ((c.invocations > 0 || c.events > 0) && !p.maxHeldWhenIdle) p.maxHeldWhenIdle = { ...c, at: idleAt }; }));
      }
      await flush();
    }
    await flush(true);
    await askAll(bridge, p, sequential);
    phases.push(p);

    // Phase 2: more invocations open at once than the bound allows.
    const shared = await open();
    const q = newPhase('concurrent');
    const live: string[] = [];
    const all: string[] = [];
    const target = options.concurrent ?? 3000;
    const width = options.open ?? 80;
    let started = 0;
    while (started < target || live.length > 0) {
      const r = random();
      if (started < target && (live.length < width && r < 0.35)) {
        const inv = `conc-${seed}-${started++}`;
        live.push(inv);
        all.push(inv);
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
        end(shared, q, inv);
        q.invocations++;
        sample(shared, q);
      }
      await flush();
    }
    await flush(true);
    await askAll(shared, q, all);
    phases.push(q);
    return { shape, bound, phases };
  } catch (error) {
    await Promise.all(inflight);
    const f = error instanceof BridgeFailure ? error : undefined;
    return { shape, bound, phases, failure: error instanceof Error ? error.message : String(error), ...(f ? { failureKind: f.kind } : {}) };
  } finally {
    await Promise.all(opened.map((b) => b.close()));
  }
}
