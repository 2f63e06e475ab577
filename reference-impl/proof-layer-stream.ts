/**
 * The proof-layer stream store: seed 000 §4.2's `useProofLayerStream` state without React, fed
 * AgentBriefingEvents (seed 002), seed 000 §4.3's progressive proof events and audit events, and
 * applying them on seed 000 §4.5's three update tiers:
 *
 *   Tier 1 "Immediate": critical alerts, error states, final responses -> applied in push().
 *   Tier 2 "Buffered Progressive (300ms)": reasoning steps, citations, confidence updates -> held
 *     `bufferMs` from the first one buffered, then applied in `sequence` order.
 *   Tier 3 "Debounced Aggregate (1s)": audit logs, status updates, metadata -> debounced; STATUS
 *     on its own `statusDebounceMs` clock, because seed 002 §4.2 rule 3 asks "min 300ms".
 *
 * The tier of each event is decided by `classify` (the table in docs/proof-layer-stream.md).
 * Listeners hear one notification per applied batch, so a flush never renders half-applied.
 *
 * @see ../../shared/seeds/000_5ad52155f7270382.txt §4.2, §4.3, §4.5; 002_5ff8a59327e8a576.txt §4.1, §4.2
 */
type TimerHandle = ReturnType<typeof setTimeout>;

export type ProofLayerStreamConfig = {
  /** Tier 2 window (seed 000 §4.2 `bufferMs?: number; // Default: 300ms`). */
  bufferMs?: number;
  /** Tier 3 debounce for audit logs and metadata (seed 000 §4.5 "Debounced Aggregate (1s)"). */
  aggregateMs?: number;
  /** STATUS debounce; seed 002 §4.2 rule 3 "debounces STATUS updates (min 300ms)", so less is refused. */
  statusDebounceMs?: number;
  /** Which briefing ends the stream (`isComplete`). Default: the end states of seed 002 §4.1, an INSIGHT with `state: "COMPLETE"` or a STATUS with `state: "ERROR"`. */
  isFinal?: (event: Record<string, unknown>) => boolean;
  now?: () => number;
  setTimeout?: (fn: () => void, ms: number) => TimerHandle;
  clearTimeout?: (handle: TimerHandle) => void;
};

export type ProofLayerStream = {
  /** Accept one event; tier 1 is applied before push returns, the others when their timer fires. */
  push: (event: unknown) => void;
  subscribe: (listener: (state: ProofLayerStreamState) => void) => () => void;
  /** The current state: the same object until a batch is applied, then a new one; never mutated (useSyncExternalStore compares snapshots by identity). */
  getState: () => ProofLayerStreamState;
  /** Apply everything pending now (tier 2 in sequence order, then status, then aggregate). */
  flush: () => void;
  /** Clear every timer, drop what is pending and every listener; push afterwards throws. */
  dispose: () => void;
};

export function createProofLayerStream(config: ProofLayerStreamConfig = {}): ProofLayerStream {
  const bufferMs = duration(config.bufferMs, 300, 'bufferMs');
  const aggregateMs = duration(config.aggregateMs, 1000, 'aggregateMs');
  const statusDebounceMs = duration(config.statusDebounceMs, 300, 'statusDebounceMs');
  if (statusDebounceMs < 300) {
    throw new RangeError(`createProofLayerStream: statusDebounceMs must be at least 300 (seed 002 §4.2 rule 3: "debounces STATUS updates (min 300ms)"), got ${statusDebounceMs}`);
  }
  const now = config.now ?? Date.now;
  const isFinal = config.isFinal ?? ((e) => (e.type === 'INSIGHT' && e.state === 'COMPLETE') || (e.type === 'STATUS' && e.state === 'ERROR'));
  const setTimer = config.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = config.clearTimeout ?? ((handle) => clearTimeout(handle));

  let state = initialProofLayerState();
  let disposed = false;
  const listeners = new Set<(state: ProofLayerStreamState) => void>();
  // Arrival number: the tiebreak when two tier-2 events share a sequence (or have none).
  let arrivals = 0;
  const pending: Record<Exclude<Lane, 'immediate'>, { items: Classified[]; timer: TimerHandle | undefined }> = {
    progressive: { items: [], timer: undefined },
    status: { items: [], timer: undefined },
    aggregate: { items: [], timer: undefined },
  };

  function commit(batch: Classified[]): void {
    if (batch.length === 0) return;
    let next = state;
    for (const item of batch) next = applyEvent(next, item, { now, isFinal });
    state = next;
    for (const listener of [...listeners]) listener(state);
  }

  function take(lane: Exclude<Lane, 'immediate'>): Classified[] {
    const slot = pending[lane];
    if (slot.timer !== undefined) { clearTimer(slot.timer); slot.timer = undefined; }
    const items = slot.items;
    slot.items = [];
    // "Process buffered events in sequence order" (seed 000 §4.2 flushBuffer); the others keep arrival order.
    if (lane === 'progressive') items.sort((a, b) => a.sequence - b.sequence || a.arrival - b.arrival);
    return items;
  }

  function drain(): Classified[] {
    return [...take('progressive'), ...take('status'), ...take('aggregate')];
  }

  function push(event: unknown): void {
    if (disposed) throw new Error('proof-layer stream: push() after dispose(); create a new stream with createProofLayerStream()');
    const item = classify(event, arrivals++);
    if (item.lane === 'immediate') {
      // Tier 1 "Immediate (< 100ms)": applied now. What was pending came first, so it is applied
      // first: a final answer never shows before the reasoning that preceded it.
      commit([...drain(), item]);
      return;
    }
    const slot = pending[item.lane];
    slot.items.push(item);
    if (item.lane === 'progressive') {
      // A fixed window from the first buffered event, not the hook sketch's restart on every event:
      // a restart would hold reasoning back for as long as steps keep coming, against "Stream
      // reasoning steps incrementally" (seed 000 §4.1 Pattern). The UI still updates at most once per window.
      slot.timer ??= setTimer(() => { slot.timer = undefined; commit(take('progressive')); }, bufferMs);
      return;
    }
    // Tier 3 "Debounced": every new event restarts its lane's clock; the batch is applied together.
    if (slot.timer !== undefined) clearTimer(slot.timer);
    const lane = item.lane;
    slot.timer = setTimer(() => { slot.timer = undefined; commit(take(lane)); }, lane === 'status' ? statusDebounceMs : aggregateMs);
  }

  return {
    push,
    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError('proof-layer stream: subscribe(listener) needs a function receiving the state');
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    getState: () => state,
    flush: () => { if (!disposed) commit(drain()); },
    dispose() {
      disposed = true;
      for (const slot of Object.values(pending)) {
        if (slot.timer !== undefined) clearTimer(slot.timer);
        slot.timer = undefined;
        slot.items = [];
      }
      listeners.clear();
    },
  };
}

function duration(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`createProofLayerStream: ${name} must be a finite number of milliseconds >= 0, got ${JSON.stringify(value)}`);
  }
  return value;
}

// ---- state and classification ----

/** seed 000 §4.3 `ReasoningStep`. */
export type ReasoningStep = { sequence: number; text: string; timestamp: string; confidence?: number; citations?: string[] };
/** One entry of `confidenceHistory`: where the value came from and when. */
export type ConfidenceUpdate = { sequence: number; confidence: number; timestamp: string; source: string };
/** A citation in either field set of the agent-briefing-event schema (seed 002 §2, seed 000 §3.3 rule 2). */
export type Citation = Record<string, unknown>;
type Briefing = Record<string, unknown> & { type: 'INSIGHT' | 'ALERT' | 'ACTION' | 'STATUS'; event_id: string };

/** seed 000 §4.2 `ProofLayerStreamState`, plus where the tier-1 and tier-3 events land. */
export type ProofLayerStreamState = {
  reasoningSteps: ReasoningStep[];
  citations: Citation[];
  confidenceHistory: ConfidenceUpdate[];
  currentConfidence: number;
  isComplete: boolean;
  /** Events applied so far (pending ones are not counted until their tier applies them). */
  eventCount: number;
  /** INSIGHT and ACTION events, in the order applied. */
  briefings: Briefing[];
  alerts: Briefing[];
  /** STATUS events whose `state` is ERROR (seed 002 §4.1 "ERROR | STATUS | Recovery failure"). */
  errors: Briefing[];
  /** The latest STATUS event applied. */
  status: Briefing | null;
  /** Audit events (seed 000 §3.1), pushed alone or inside an ADK event's `_audit_metadata`. */
  auditLog: Record<string, unknown>[];
};

export type Lane = 'immediate' | 'progressive' | 'status' | 'aggregate';
export type Classified = { lane: Lane; tier: 1 | 2 | 3; kind: 'briefing' | 'progressive' | 'audit' | 'metadata'; event: Record<string, unknown>; sequence: number; arrival: number };

const auditTypes = new Set(['tool_invocation', 'tool_response', 'tool_error', 'mcp_fetch', 'data_load', 'reasoning_step', 'confidence_calc']);
const proofTypes = new Set(['reasoning_step', 'citation_accessed', 'confidence_update']);
const briefingTypes = new Set(['INSIGHT', 'ALERT', 'ACTION', 'STATUS']);

export function initialProofLayerState(): ProofLayerStreamState {
  return { reasoningSteps: [], citations: [], confidenceHistory: [], currentConfidence: 0, isComplete: false, eventCount: 0, briefings: [], alerts: [], errors: [], status: null, auditLog: [] };
}

/** Which tier and lane an event belongs to (docs/proof-layer-stream.md has the table). Throws on what is no event of ours. */
export function classify(event: unknown, arrival = 0): Classified {
  if (!isObject(event)) throw new TypeError(`proof-layer stream: push() takes an event object, got ${describe(event)}`);
  const sequence = typeof event.sequence === 'number' && Number.isFinite(event.sequence) ? event.sequence : Number.POSITIVE_INFINITY;
  const base = { event, sequence, arrival };
  if (event.proof_type !== undefined) {
    if (typeof event.proof_type !== 'string' || !proofTypes.has(event.proof_type)) {
      throw new TypeError(`proof-layer stream: proof_type must be one of ${[...proofTypes].join(', ')} (seed 000 §4.3), got ${describe(event.proof_type)}`);
    }
    checkProofData(event);
    return { ...base, lane: 'progressive', tier: 2, kind: 'progressive' };
  }
  if (typeof event.type === 'string' && briefingTypes.has(event.type)) {
    if (typeof event.event_id !== 'string') throw new TypeError(`proof-layer stream: an AgentBriefingEvent needs a string event_id (seed 002 §2), got ${describe(event.event_id)}`);
    if (event.type === 'STATUS' && event.state !== 'ERROR') return { ...base, lane: 'status', tier: 3, kind: 'briefing' };
    return { ...base, lane: 'immediate', tier: 1, kind: 'briefing' };
  }
  if (typeof event.event_type === 'string' && auditTypes.has(event.event_type)) return { ...base, lane: 'aggregate', tier: 3, kind: 'audit' };
  if (Array.isArray(event._audit_metadata)) return { ...base, lane: 'aggregate', tier: 3, kind: 'metadata' };
  throw new TypeError(`proof-layer stream: push() takes an AgentBriefingEvent (type INSIGHT|ALERT|ACTION|STATUS), a progressive proof event (proof_type), an audit event (event_type one of ${[...auditTypes].join(', ')}) or an ADK event with _audit_metadata; got keys ${JSON.stringify(Object.keys(event))}`);
}

function checkProofData(event: Record<string, unknown>): void {
  const data = isObject(event.proof_data) ? event.proof_data : {};
  const need = event.proof_type === 'reasoning_step' ? ['step', 'string'] : event.proof_type === 'citation_accessed' ? ['citation', 'object'] : ['confidence', 'number'];
  const [field, type] = need as [string, string];
  const value = data[field];
  const ok = type === 'object' ? isObject(value) : type === 'number' ? typeof value === 'number' && value >= 0 && value <= 1 : typeof value === 'string';
  if (!ok) throw new TypeError(`proof-layer stream: a '${String(event.proof_type)}' event needs proof_data.${field} (${type === 'number' ? 'a number from 0 to 1' : `a${type === 'object' ? 'n' : ''} ${type}`}), got ${describe(value)}`);
}

export function applyEvent(prev: ProofLayerStreamState, item: Classified, ctx: { now: () => number; isFinal: (e: Record<string, unknown>) => boolean }): ProofLayerStreamState {
  const s: ProofLayerStreamState = { ...prev, eventCount: prev.eventCount + 1 };
  const e = item.event;
  const at = timestamp(e.timestamp, ctx.now);
  const nextSequence = () => Math.max(0, ...s.reasoningSteps.map((r) => r.sequence + 1), ...s.confidenceHistory.map((c) => c.sequence + 1));
  const addConfidence = (confidence: number, sequence: number, source: string) => {
    s.confidenceHistory = [...s.confidenceHistory, { sequence, confidence, timestamp: at, source }];
    s.currentConfidence = confidence;
  };
  const addCitation = (citation: Citation) => {
    const key = citationKey(citation);
    if (!s.citations.some((c) => citationKey(c) === key)) s.citations = [...s.citations, citation];
  };

  if (item.kind === 'progressive') {
    const data = e.proof_data as Record<string, unknown>;
    const sequence = Number.isFinite(item.sequence) ? item.sequence : nextSequence();
    if (e.proof_type === 'reasoning_step') {
      // A retransmitted sequence number is the same step: the first one stays.
      if (s.reasoningSteps.some((r) => r.sequence === sequence)) return s;
      const step: ReasoningStep = { sequence, text: data.step as string, timestamp: at };
      if (typeof data.confidence === 'number') step.confidence = data.confidence;
      if (Array.isArray(data.citations)) step.citations = data.citations.filter((c): c is string => typeof c === 'string');
      s.reasoningSteps = insertBySequence(s.reasoningSteps, step);
    } else if (e.proof_type === 'citation_accessed') {
      addCitation(data.citation as Citation);
    } else {
      addConfidence(data.confidence as number, sequence, 'confidence_update');
    }
    return s;
  }
  if (item.kind === 'audit' || item.kind === 'metadata') {
    const entries = item.kind === 'audit' ? [e] : (e._audit_metadata as unknown[]).filter(isObject);
    s.auditLog = [...s.auditLog, ...entries];
    return s;
  }
  const briefing = e as Briefing;
  if (briefing.type === 'ALERT') s.alerts = [...s.alerts, briefing];
  else if (briefing.type === 'STATUS') {
    s.status = briefing;
    if (briefing.state === 'ERROR') s.errors = [...s.errors, briefing];
  } else s.briefings = [...s.briefings, briefing];
  const proof = isObject(briefing.proof_layer) ? briefing.proof_layer : {};
  if (Array.isArray(proof.reasoning_chain)) {
    // A final answer repeats the chain already streamed step by step; a text seen before is not added twice.
    for (const text of proof.reasoning_chain) {
      if (typeof text === 'string' && !s.reasoningSteps.some((r) => r.text === text)) s.reasoningSteps = [...s.reasoningSteps, { sequence: nextSequence(), text, timestamp: at }];
    }
  }
  if (Array.isArray(proof.citations)) for (const c of proof.citations) if (isObject(c)) addCitation(c);
  if (typeof proof.confidence === 'number') addConfidence(proof.confidence, nextSequence(), `${briefing.type}:${briefing.event_id}`);
  if (ctx.isFinal(briefing)) s.isComplete = true;
  return s;
}

/** Two citations are the same source when their identifying fields agree (either field set of the schema). */
function citationKey(c: Citation): string {
  const pick = (...keys: string[]) => keys.map((k) => c[k]).find((v) => typeof v === 'string' && v !== '');
  const id = pick('uri', 'reference_id', 'id');
  return JSON.stringify(id !== undefined ? [pick('source', 'source_type') ?? '', id] : Object.entries(c).sort(([a], [b]) => a.localeCompare(b)));
}

function insertBySequence(steps: ReasoningStep[], step: ReasoningStep): ReasoningStep[] {
  const at = steps.findIndex((r) => r.sequence > step.sequence);
  return at === -1 ? [...steps, step] : [...steps.slice(0, at), step, ...steps.slice(at)];
}

/** ISO text for an event's time: ISO strings pass, ADK numbers are ms (adk-js) or seconds (adk-python). */
function timestamp(value: unknown, now: () => number): string {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value < 1e11 ? value * 1000 : value).toISOString();
  return new Date(now()).toISOString();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
