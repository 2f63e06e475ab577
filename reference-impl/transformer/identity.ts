/**
 * Identity of the briefings of one run (seed 002 §2 and §4.2): one correlation_id for the whole
 * run, a fresh UUID per event, and the link from a specialist's result to the delegation that asked
 * for it. docs/briefing-mapping.md §"Identity" says why.
 */
import { createEvictionRing } from './eviction-ring.ts';

export type Correlation = 'session' | 'invocation';

export type IdentityConfig = { correlation: Correlation; sessionId?: string | undefined; uuid: () => string };

export type Identity = {
  /** The run's correlation id, fixed by the first call (later invocation ids never change it). */
  correlationId: (invocationId: string | undefined) => string;
  eventId: () => string;
  /** Remember the STATUS event that announced a function call. */
  announce: (call: { id: string | undefined; name: string }, eventId: string) => void;
  /** The STATUS event that announced the call this response answers, or null. */
  parentOf: (response: { id: string | undefined; name: string }) => string | null;
};

/** Event ids checked for repeats, and calls remembered for their responses. */
const recentLimit = 4096;

export function createIdentity(config: IdentityConfig): Identity {
  let correlation: string | undefined;
  const byCallId = new Map<string, string>();
  // seed 004's examples carry calls without ids: match those by name, first in first out.
  const byName = new Map<string, string[]>();
  const issued = new Set<string>();
  const noteIssued = createEvictionRing(recentLimit, (old) => issued.delete(old));
  const noteCall = createEvictionRing(recentLimit, (old) => byCallId.delete(old));

  function correlationId(invocationId: string | undefined): string {
    if (correlation !== undefined) return correlation;
    // Seed 002 §4.2: "The `correlation_id` must persist throughout an entire multi-agent thread."
    // The session spans every turn of the thread; the invocation id is the fallback when no session
    // id is known, and it survives a transfer (adk-wire-format §4: "transferred sub-agent included").
    correlation = config.correlation === 'session' ? config.sessionId : invocationId ?? config.sessionId;
    // Nothing names the run yet (an error frame before any event): a fresh id still groups it.
    correlation ??= `run-${config.uuid()}`;
    return correlation;
  }

  function eventId(): string {
    const id = config.uuid();
    // Seed 002 §2: "UUID for this specific event." A broken generator is a programmer error.
    if (issued.has(id)) throw new Error(`createTransformer: the uuid() option returned ${id} twice; event ids must be unique`);
    // The check guards a broken generator, which repeats soon: recent ids are enough, and a long
    // run keeps bounded memory (docs/performance.md).
    noteIssued(id);
    issued.add(id);
    return id;
  }

  function announce(call: { id: string | undefined; name: string }, id: string): void {
    if (call.id !== undefined) {
      if (!byCallId.has(call.id)) noteCall(call.id);
      byCallId.set(call.id, id);
    }
    else byName.set(call.name, [...(byName.get(call.name) ?? []), id]);
  }

  function parentOf(response: { id: string | undefined; name: string }): string | null {
    if (response.id !== undefined && byCallId.has(response.id)) return byCallId.get(response.id) ?? null;
    const queue = byName.get(response.name);
    return queue?.shift() ?? null;
  }

  return { correlationId, eventId, announce, parentOf };
}
