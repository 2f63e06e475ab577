/**
 * ADK events -> AgentBriefingEvents (seed 002 §2-§4, seed 001, seed 000 §3). A protocol engine:
 * frames go in one at a time, briefings come out as complete blocks (seed 002 §4.2 rule 2), and
 * `end()` closes the run with exactly one terminal event, COMPLETE or ERROR. The answer is held
 * until the run is over because the real server gives no reliable "last answer" marker
 * (adk-wire-format §5 "Completion"). docs/briefing-mapping.md is the table this code implements.
 */
import { randomUUID } from 'node:crypto';
import { actionOf, authorOf, callsOf, errorCodeOf, finishReasonOf, invocationOf, isMetadataOnly, isPartial, longRunningIdsOf, partsOf, responsesOf, transferTarget, usageOf, type Response } from './adk-event.ts';
import { classifyData, classifyPayload, type ClientFrame, type EndReason } from './frames.ts';
import { createIdentity, type Correlation } from './identity.ts';
import { classifyCall, oneLine, resultText, statusSummary, toolFailure, type CallKind } from './lifecycle.ts';
import { assembleProof } from './proof-assembly.ts';
import { readAuditTrail, type AuditRecord } from './proof-from-audit.ts';
import { degradationNotice } from './proof-layer.ts';
import { blockedCodes, suggestForErrorCode, suggestForErrorFrame, suggestForStatus } from './suggestions.ts';
import { createEvictionRing } from './eviction-ring.ts';
import { createTextAccumulator } from './text-accumulator.ts';
import type { AdkEvent, BriefingEvent, BriefingState, BriefingUsage, Citation } from './types.ts';

export type TransformerConfig = {
  /** Default: 'session' when a sessionId is given, else 'invocation'. */
  correlation?: Correlation;
  sessionId?: string;
  /** Clock for `timestamp` (epoch ms). */
  now?: () => number;
  /** Event id generator (default crypto.randomUUID). */
  uuid?: () => string;
  /** Names of the agents called as tools; without it the AgentTool declaration shape decides. */
  specialists?: readonly string[];
  /** The stream comes from /run_sse_enhanced, which ends with `data: [DONE]` (seed 000 §2.2B). */
  enhanced?: boolean;
  onEvent?: (event: BriefingEvent) => void;
  /**
   * Keep every emitted event for `events()` and `end()` (default true). A streaming consumer that
   * takes each event from `onEvent` passes false, and the transformer's memory then stays flat
   * however long the run (docs/performance.md): `events()` is empty and `end()` returns only the
   * events emitted by that call.
   */
  keepEvents?: boolean;
};

export type RunEnd = { reason: EndReason; status?: number; body?: string; message?: string };

export type Transformer = {
  /** One parsed `data:` payload: an ADK event or an error frame. */
  push: (payload: unknown, where?: string) => void;
  /** The text of one `data:` field, exactly as received (`[DONE]` and invalid JSON included). */
  pushData: (data: string, where?: string) => void;
  /** A client frame (client.ts), `end` frames included. */
  pushFrame: (frame: ClientFrame, where?: string) => void;
  /** The stream is over (EOF unless said otherwise): emit the terminal event; returns every event (with keepEvents: false, those this call emitted). */
  end: (end?: RunEnd) => BriefingEvent[];
  events: () => readonly BriefingEvent[];
  done: () => boolean;
};

type Draft = Omit<BriefingEvent, 'event_id' | 'correlation_id' | 'sequence' | 'timestamp' | 'parent_event_id'> & { parent_event_id?: string | null };
/** The held answer; `usage` is its model event's token usage (absent for a skipSummarization result, which no model event gave). */
type Candidate = { author: string; text: string; finishReason: string | undefined; response?: Response; parent: string | null; usage?: BriefingUsage | null };

export function createTransformer(config: TransformerConfig = {}): Transformer {
  const correlation = config.correlation ?? (config.sessionId ? 'session' : 'invocation');
  if (correlation !== 'session' && correlation !== 'invocation') throw new TypeError(`createTransformer: correlation must be 'session' or 'invocation', got ${JSON.stringify(correlation)}`);
  if (correlation === 'session' && !config.sessionId) throw new TypeError("createTransformer: correlation 'session' needs the sessionId option (or use correlation 'invocation')");
  const now = config.now ?? Date.now;
  const identity = createIdentity({ correlation, sessionId: config.sessionId, uuid: config.uuid ?? randomUUID });
  const specialists = config.specialists ? new Set(config.specialists) : undefined;
  const text = createTextAccumulator();

  const keepEvents = config.keepEvents ?? true;
  if (!keepEvents && !config.onEvent) throw new TypeError('createTransformer: keepEvents: false keeps no events, so it needs the onEvent option to hand each one over');
  const events: BriefingEvent[] = [];
  let emitted = 0;
  // With keepEvents false, end() still returns what it emitted itself.
  let collected: BriefingEvent[] | undefined;
  const thinking = new Set<string>();
  const audit = new Map<string, AuditRecord>();
  const callKinds = new Map<string, CallKind>();
  const callers = new Set<string>(); // agents whose calls were answered: their next answer is a synthesis
  const steps = createRecentList<string>(recentLimit); // the observed run, the final answer's reasoning chain without audit
  const consulted = createRecentList<Citation>(recentLimit); // the specialists' citations, listed on the final answer
  let synthesizing = false;
  let candidate: Candidate | undefined;
  let pendingError: { author: string; code: string; message: string } | undefined;
  let lastInvocation: string | undefined;
  let sawDone = false;
  let terminated = false;
  let frames = 0;

  // Events of one millisecond share its ISO text: formatting a Date was a tenth of emit's time.
  let stampMs = Number.NaN;
  let stampText = '';
  function stamp(): string {
    const ms = now();
    if (ms !== stampMs) { stampMs = ms; stampText = new Date(ms).toISOString(); }
    return stampText;
  }

  function emit(draft: Draft): BriefingEvent {
    const event: BriefingEvent = {
      event_id: identity.eventId(),
      correlation_id: identity.correlationId(lastInvocation),
      parent_event_id: draft.parent_event_id ?? null,
      ...draft,
      sequence: emitted++,
      timestamp: stamp(),
    } as BriefingEvent;
    if (keepEvents) events.push(event);
    else collected?.push(event);
    if (event.state === 'COMPLETE' || event.state === 'ERROR') terminated = true;
    config.onEvent?.(event);
    return event;
  }

  const status = (state: BriefingState, agent: string, summary: string, extra: Partial<Draft> = {}) =>
    emit({ type: 'STATUS', state, source_agent: agent, content: { summary }, ...extra });

  function error(source: NonNullable<BriefingEvent['error']>['source'], agent: string, message: string, suggestion: string, code?: string): void {
    const summary = oneLine(`Error: ${message}`, 'Error');
    status('ERROR', agent, summary, { content: { summary, detail: suggestion }, error: { source, message, ...(code ? { code } : {}) } });
  }

  function alert(agent: string, summary: string, detail: string, extra: Partial<Draft> = {}): void {
    emit({ type: 'ALERT', source_agent: agent, content: { summary: oneLine(summary, 'Alert'), detail }, ...extra });
  }

  // Seed 002 §4.1 SYNTHESIZING: "Aggregating final response", once per answer after answered calls.
  function synthesize(author: string): void {
    if (synthesizing || !callers.has(author)) return;
    synthesizing = true;
    status('SYNTHESIZING', author, statusSummary.synthesizing(author));
  }

  /** The held answer becomes an intermediate INSIGHT (something followed it) or the COMPLETE one. */
  function flushCandidate(complete: boolean): void {
    const c = candidate;
    if (!c) return;
    candidate = undefined;
    if (complete && !c.response) synthesize(c.author);
    const { proof, notice, skillId } = assembleProof({
      trail: [...audit.values()], scope: c.author, wholeTrail: complete, response: c.response?.response, text: c.text, final: !c.response,
      ...(complete ? { moreCitations: consulted.items(), observedSteps: steps.items((n) => `(${n} earlier steps not listed)`) } : {}),
    });
    emit({
      type: 'INSIGHT', source_agent: c.author, parent_event_id: c.parent,
      content: { summary: oneLine(c.text, `${c.author} answered`), detail: c.text, ...(notice ? { degradation_notice: notice } : {}) },
      proof_layer: proof, ...(skillId ? { skill_id: skillId } : {}), ...(complete ? { state: 'COMPLETE' as const } : {}),
      ...(c.usage !== undefined ? { usage: c.usage } : {}),
    });
  }

  function flushPendingError(): void {
    if (!pendingError) return;
    const { author, code, message } = pendingError;
    pendingError = undefined;
    alert(author, `${author} reported ${code}${message ? `: ${message}` : ''}`, `The agent continued after this model error. ${suggestForErrorCode(code, message)}`, { error: { source: 'error-code', code, message } });
  }

  function onEvent(event: AdkEvent): void {
    for (const record of readAuditTrail(event._audit_metadata)) if (!audit.has(record.key)) audit.set(record.key, record);
    lastInvocation ??= invocationOf(event);
    const block = text.feed(event);
    if (block.kind === 'duplicate') return;
    const author = authorOf(event);
    const code = errorCodeOf(event);
    const role = event.content?.role;
    // Seed 002 §4.1 THINKING, "Agent is parsing intent": the first model activity of each agent.
    if (!thinking.has(author) && (role === 'model' || code !== undefined || (isPartial(event) && partsOf(event).length > 0))) {
      thinking.add(author);
      status('THINKING', author, statusSummary.thinking(author));
    }
    // Chunks are never briefings; their text returns whole in the non-partial event (§3.2), and
    // Python's partial function-call previews never run (adk-python-facts §4 item 2).
    if (isPartial(event) || block.kind !== 'block') return;
    if (code !== undefined) return onModelError(event, author, code, block.text);
    if (isMetadataOnly(event)) return; // adk-js's usage report after a tool round: nothing to show
    flushPendingError();
    const calls = callsOf(event);
    if (calls.length > 0) return onCalls(event, author, calls, block.text);
    const responses = responsesOf(event);
    if (responses.length > 0) return onResponses(event, author, responses);
    if (!block.text) return;
    // An answer. It is held: a later answer supersedes it (multi-agent runs have one per agent,
    // adk-python-facts §4 item 15), and only the run's end makes it the COMPLETE one.
    flushCandidate(false);
    candidate = { author, text: block.text, finishReason: finishReasonOf(event), parent: null, usage: usageOf(event) };
    if (candidate.finishReason !== undefined) synthesize(author);
  }

  function onModelError(event: AdkEvent, author: string, code: string, answer: string): void {
    flushCandidate(false);
    flushPendingError();
    const message = typeof event.errorMessage === 'string' ? event.errorMessage : '';
    // Python keeps the content of a MAX_TOKENS answer next to its errorCode (adk-python-facts §3.2).
    if (answer) { candidate = { author, text: answer, finishReason: finishReasonOf(event), parent: null, usage: usageOf(event) }; flushCandidate(false); }
    if (blockedCodes.has(code)) alert(author, `${author}'s response was blocked (${code})`, message || suggestForErrorCode(code, message), { error: { source: 'error-code', code, message } });
    // Held: the run may go on (adk-js calls the model again after an unknown tool, §6); at the
    // end it is the ERROR, otherwise an ALERT.
    pendingError = { author, code, message };
  }

  function onCalls(event: AdkEvent, author: string, calls: ReturnType<typeof callsOf>, said: string): void {
    // adk-js streaming splits the text before the calls into its own event without finishReason
    // (adk-wire-format §5d); it is the same narration the other renderings carry in the call event.
    let narration = said;
    if (candidate && candidate.author === author && candidate.finishReason === undefined && !candidate.response) {
      narration = [candidate.text, said].filter(Boolean).join('\n\n');
      candidate = undefined;
    } else flushCandidate(false);
    synthesizing = false;
    const longRunning = new Set(longRunningIdsOf(event));
    calls.forEach((call, i) => {
      const kind = classifyCall(call, specialists);
      rememberKind(call.id !== undefined ? call.id : `name:${call.name}`, kind);
      const target = kind === 'transfer' ? (transferTarget(call) as string) : call.name;
      const request = kind === 'specialist' && typeof call.args.request === 'string' ? call.args.request : JSON.stringify(call.args);
      const waiting = call.id !== undefined && longRunning.has(call.id) ? '\n\nLong-running: the result arrives with a later request.' : '';
      const detail = [i === 0 ? narration : '', kind === 'transfer' ? '' : `Request: ${request}${waiting}`].filter(Boolean).join('\n\n');
      // Seed 002 §3 "C->>S: Delegate (AgentBriefingEvent: STATUS)"; a plain tool is EXECUTING.
      const state = kind === 'tool' ? 'EXECUTING' : 'DELEGATING';
      const summary = kind === 'tool' ? statusSummary.executing(author, call.name) : kind === 'transfer' ? statusSummary.transferring(author, target) : statusSummary.delegating(author, target);
      // The turn's token usage goes on its first announcement only, so a UI that adds it up counts the LLM call once.
      const announced = status(state, author, summary, { content: { summary, ...(detail ? { detail } : {}) }, ...(kind === 'tool' ? { skill_id: call.name } : {}), delegate_to: target, ...(i === 0 ? { usage: usageOf(event) } : {}) });
      identity.announce(call, announced.event_id);
      steps.push(kind === 'tool' ? `${author} ran ${call.name}` : kind === 'transfer' ? `${author} transferred to ${target}` : `${author} delegated to ${target}: ${request}`);
    });
  }

  function onResponses(event: AdkEvent, author: string, responses: Response[]): void {
    flushCandidate(false);
    callers.add(author);
    // skipSummarization: the result itself is the final answer (adk-python-facts §3.3).
    const skip = actionOf(event, 'skipSummarization') === true;
    responses.forEach((response, i) => {
      const kind = callKinds.get(response.id ?? '') ?? callKinds.get(`name:${response.name}`) ?? (specialists?.has(response.name) ? 'specialist' : 'tool');
      const parent = identity.parentOf(response);
      if (kind === 'transfer') return; // "Transfer queued": the target agent's own events follow
      const failure = toolFailure(response.response);
      const agent = kind === 'specialist' ? response.name : author;
      if (failure !== undefined) {
        // A tool that threw (adk-wire-format §6: "the run continues"): tier 4, "Unable to answer".
        steps.push(`${response.name} failed: ${failure}`);
        alert(agent, `${response.name} failed: ${failure}`, failure, {
          parent_event_id: parent, skill_id: response.name, error: { source: 'tool', message: failure },
          proof_layer: { confidence: 0, reasoning_chain: [], citations: [], basis: 'failure' },
          content: { summary: oneLine(`${response.name} failed: ${failure}`, 'Tool failure'), detail: failure, degradation_notice: degradationNotice(0, '') as string },
        });
        return;
      }
      const answer = resultText(response.response);
      if (skip && i === responses.length - 1) { candidate = { author: agent, text: answer, finishReason: 'STOP', response, parent }; return; }
      if (kind !== 'specialist') { steps.push(`${response.name} returned`); return; }
      // Seed 002 §3 "S-->>C: Return Analysis (AgentBriefingEvent: INSIGHT)".
      const { proof, notice, skillId } = assembleProof({ trail: [...audit.values()], scope: response.name, response: response.response, text: answer, final: false });
      for (const citation of proof.citations) consulted.push(citation);
      steps.push(`${response.name} answered${proof.confidence === undefined ? ' (no confidence stated)' : ` (confidence ${proof.confidence.toFixed(2)})`}`);
      emit({
        type: 'INSIGHT', source_agent: response.name, parent_event_id: parent, skill_id: skillId ?? response.name,
        content: { summary: oneLine(answer, `${response.name} answered`), detail: answer, ...(notice ? { degradation_notice: notice } : {}) },
        proof_layer: proof,
      });
    });
  }

  function pushFrame(frame: ClientFrame, where?: string): void {
    if (terminated) return;
    if ('data' in frame) frames++;
    const at = where ?? `frame ${frames}`;
    switch (frame.kind) {
      case 'event': return onEvent(frame.event);
      case 'error': {
        // adk-python-facts §1.3 step 9: the error frame is the last frame; seed 004's gateway frames too.
        const agent = candidate?.author ?? pendingError?.author ?? [...thinking].pop() ?? 'adk';
        flushCandidate(false);
        flushPendingError();
        const { code, message, suggestion } = suggestForErrorFrame(frame.error);
        return error('error-frame', agent, message, suggestion, code);
      }
      case 'done': sawDone = true; end({ reason: 'done-sentinel' }); return;
      case 'invalid': return alert('adk', `${at}: unreadable frame`, `${frame.reason}. The frame was skipped: ${frame.data.slice(0, 200)}`, { error: { source: 'input', code: 'INVALID_FRAME', message: `${at}: ${frame.reason}` } });
      case 'issue': return alert('adk', `stream issue: ${frame.issue.kind}`, frame.issue.message, { error: { source: 'stream', code: frame.issue.kind.toUpperCase().replace(/-/g, '_'), message: frame.issue.message } });
      case 'end': end(frame); return;
    }
  }

  function end(info: RunEnd = { reason: 'eof' }): BriefingEvent[] {
    if (keepEvents) { finish(info); return events; }
    collected = [];
    try { finish(info); return collected; } finally { collected = undefined; }
  }

  // Calls are looked up when their responses come, which is soon: only the most recent are kept.
  const noteCall = createEvictionRing(callLimit, (old) => callKinds.delete(old));
  function rememberKind(key: string, kind: CallKind): void {
    if (!callKinds.has(key)) noteCall(key);
    callKinds.set(key, kind);
  }

  function finish(info: RunEnd): void {
    if (terminated) return;
    const agent = candidate?.author ?? pendingError?.author ?? [...thinking].pop() ?? 'adk';
    if (info.reason === 'http-error') {
      const detail = info.body ?? '';
      error('http', agent, `the agent service answered HTTP ${info.status ?? '?'}${detail ? `: ${detail.slice(0, 300)}` : ''}`, suggestForStatus(info.status ?? 0, detail), `HTTP_${info.status ?? 0}`);
      return;
    }
    if (config.enhanced && !sawDone && info.reason === 'eof') alert(agent, 'the enhanced stream ended without its [DONE] sentinel', 'seed 000 §2.2B ends /run_sse_enhanced with `data: [DONE]`; the stream may have been cut.', { error: { source: 'stream', code: 'MISSING_DONE', message: 'no [DONE] before EOF' } });
    if (pendingError) {
      const { author, code, message } = pendingError;
      pendingError = undefined;
      error('error-code', author, `${code}${message ? `: ${message}` : ''}`, suggestForErrorCode(code, message), code);
    } else if (candidate) {
      flushCandidate(true);
    } else {
      const unfinished = text.unfinished().map((u) => `${u.author} had streamed ${u.text.length} characters that no complete event confirmed.`).join(' ');
      const why: Record<EndReason, string> = {
        eof: 'the stream ended without a final answer', 'done-sentinel': 'the stream ended ([DONE]) without a final answer',
        idle: `no event arrived for the idle window and no final answer was given${info.message ? ` (${info.message})` : ''}`,
        'final-rule': 'the stream ended without a final answer', aborted: 'the run was aborted before its final answer',
        'network-error': `the connection broke${info.message ? `: ${info.message}` : ''}`, 'error-frame': 'the stream ended with an error',
        'http-error': 'the agent service refused the request',
      };
      error('stream', agent, why[info.reason], `${unfinished ? `${unfinished} ` : ''}Retry the request; if it keeps ending early, check the agent service and any proxy idle timeouts.`, info.reason === 'eof' ? 'NO_FINAL_ANSWER' : info.reason.toUpperCase().replace(/-/g, '_'));
    }
    terminated = true;
  }

  return {
    push: (payload, where) => pushFrame(classifyPayload(payload), where),
    pushData: (data, where) => pushFrame(classifyData(data), where),
    pushFrame,
    end,
    events: () => events,
    done: () => terminated,
  };
}

/**
 * How many steps and citations the final answer lists, and how many call ids are remembered: a run
 * of any length then holds a bounded state (docs/performance.md, "transformer: flat memory").
 * Real runs stay far below these; a longer one lists its most recent steps and citations.
 */
const recentLimit = 256;
const callLimit = 4096;

type RecentList<T> = { push: (item: T) => void; items: (omitted?: (count: number) => T) => T[] };

/** The last `limit` items pushed, and how many were dropped before them. */
function createRecentList<T>(limit: number): RecentList<T> {
  let list: T[] = [];
  let dropped = 0;
  return {
    push(item) {
      list.push(item);
      // Trim in batches, so a long run costs one copy per `limit` pushes, not one per push.
      if (list.length >= limit * 2) { dropped += list.length - limit; list = list.slice(-limit); }
    },
    items(omitted) {
      const extra = Math.max(0, list.length - limit);
      const kept = extra > 0 ? list.slice(extra) : list;
      const count = dropped + extra;
      return count > 0 && omitted ? [omitted(count), ...kept] : [...kept];
    },
  };
}
