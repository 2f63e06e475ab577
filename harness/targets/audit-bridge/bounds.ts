/**
 * The AUD-EVICT-001 / AUD-TRIM-001 probe: what a bridge of the kit's shape drops when it is full,
 * with the memory workload's bounds (50 invocations, 20 events each). Two fresh bridges, one
 * request at a time (a few hundred operations):
 *
 * - eviction: open maxInvocations invocations with one event each, record again into the first,
 *   open one more; the second opened (now the least recently recorded-to) must be gone, the first
 *   and the new one held;
 * - trim: record maxEventsPerInvocation + 5 events into one invocation; its trail must hold the
 *   last maxEventsPerInvocation, in record order, each as received.
 *
 * A bridge of seed 000 §2.2A's shape takes no bound: nothing is asked of it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { BoundsObservation, EvictionObservation } from '../../checks/audit-bridge/bounds.ts';
import type { MemoryBound } from '../../checks/audit-bridge/memory.ts';
import type { BridgeHandle } from './backend.ts';
import { memoryBound } from './memory.ts';
import { BridgeFailure } from './process.ts';

const extra = 5;

function auditEvent(inv: string, id: string, n: number): Record<string, unknown> {
  // Timestamps grow with the record order, so a bridge sorting by timestamp is judged here on its bounds alone.
  return { event_type: 'reasoning_step', event_id: id, timestamp: new Date(Date.UTC(2025, 11, 27, 10, 30, 0, n)).toISOString(), correlation_id: inv, agent: 'harness', payload: { step: n } };
}

export async function runBoundsWorkload(create: (bound: MemoryBound) => Promise<BridgeHandle>, seed: number): Promise<BoundsObservation> {
  const bound = memoryBound;
  const obs: BoundsObservation = { shape: 'kit', bound };
  let step: 'eviction' | 'trim' = 'eviction';
  const opened: BridgeHandle[] = [];
  const open = async () => { const b = await create(bound); opened.push(b); return b; };
  let n = 0;
  try {
    const bridge = await open();
    obs.shape = bridge.shape;
    if (bridge.shape === 'seed') return obs;
    const ids = Array.from({ length: bound.maxInvocations + 1 }, (_, i) => `bounds-${seed}-inv-${i}`);
    for (const inv of ids.slice(0, -1)) await bridge.record(auditEvent(inv, `evt_${++n}`, n));
    await bridge.record(auditEvent(ids[0]!, `evt_${++n}`, n));
    await bridge.record(auditEvent(ids[ids.length - 1]!, `evt_${++n}`, n));
    const lengths: number[] = [];
    for (const inv of ids) lengths.push((await bridge.getAuditTrail(inv)).length);
    const eviction: EvictionObservation = {
      filled: ids.length,
      touched: { id: ids[0]!, trail: lengths[0]! },
      oldest: { id: ids[1]!, trail: lengths[1]! },
      fresh: { id: ids[ids.length - 1]!, trail: lengths[lengths.length - 1]! },
      held: lengths.filter((l) => l > 0).length,
    };
    obs.eviction = eviction;

    step = 'trim';
    const trimmed = await open();
    const inv = `bounds-${seed}-trim`;
    const sent: Array<Record<string, unknown>> = [];
    for (let i = 0; i < bound.maxEventsPerInvocation + extra; i++) {
      const event = auditEvent(inv, `evt_trim_${i + 1}`, i);
      sent.push(event);
      await trimmed.record(structuredClone(event));
    }
    const trail = await trimmed.getAuditTrail(inv);
    const idOf = (e: unknown) => String((e as Record<string, unknown> | null)?.event_id ?? '?');
    obs.trim = {
      invocation: inv,
      recorded: sent.map(idOf),
      trail: trail.map(idOf),
      exact: trail.every((e) => isDeepStrictEqual(e, sent.find((s) => s.event_id === idOf(e)))),
    };
    return obs;
  } catch (error) {
    const f = error instanceof BridgeFailure ? error : undefined;
    obs.failure = { step, message: error instanceof Error ? error.message : String(error), ...(f ? { kind: f.kind } : {}) };
    return obs;
  } finally {
    await Promise.all(opened.map((b) => b.close()));
  }
}
