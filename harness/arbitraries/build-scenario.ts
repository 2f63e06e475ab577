/**
 * RunShape → scenario: writes a generated run as the run script a scripted scenario would hold
 * (schemas/scenario.schema.json, `upstream.kind: "run"`), then asks the model (model.ts) for its
 * `expect`. Pure and deterministic: one shape gives one scenario, id included.
 */
import { specialistText, toolErrorResponse, type GenCall, type GenRound } from './calls.ts';
import { expectFor } from './model.ts';
import type { GenEnding, RunShape } from './run-shape.ts';
import type { GenAuditEvent, GenScenario, GenStep } from './types.ts';

type Unit = { author: string; steps: GenStep[] };

/** FNV-1a over the shape's JSON: distinct shapes get distinct ids, the same shape the same one. */
export function shapeTag(shape: RunShape): string {
  let h = 0x811c9dc5;
  const text = JSON.stringify(shape);
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

function invocationIdOf(tag: string): string {
  const hex = (tag + tag + tag + tag).slice(0, 32);
  return `e-${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

type AuditContext = { invocationId: string; sessionId: string; next: () => number };

/** seed 000 §3.2 envelopes: a tool_invocation, then its tool_response or tool_error, per answered call. */
function auditFor(ctx: AuditContext, author: string, calls: GenCall[]): GenAuditEvent[] {
  const base = Date.UTC(2025, 11, 27, 10, 30, 0);
  const envelope = (event_type: GenAuditEvent['event_type'], parent: string | null, payload: Record<string, unknown>): GenAuditEvent => {
    const n = ctx.next();
    return { event_type, event_id: `evt_${String(n).padStart(3, '0')}`, timestamp: new Date(base + n * 1000).toISOString(), correlation_id: ctx.invocationId, agent: author, session_id: ctx.sessionId, parent_event_id: parent, payload };
  };
  return calls.flatMap((call) => {
    const invocation = envelope('tool_invocation', null, { tool_name: call.name, parameters: call.kind === 'specialist' ? { request: call.request } : call.args });
    const outcome = call.result.ok
      ? envelope('tool_response', invocation.event_id, { tool_name: call.name, status: 'success', confidence: call.audit.confidence, reasoning_steps: call.audit.reasoning })
      : envelope('tool_error', invocation.event_id, { tool_name: call.name, error: call.result.message });
    return [invocation, outcome];
  });
}

function responseOf(call: GenCall): { name: string; response: Record<string, unknown> } {
  if (!call.result.ok) return { name: call.name, response: toolErrorResponse(call.name, call.result.message) };
  // AgentTool wraps the specialist's final text as `{"result": ...}` (adk-wire-format §5d).
  return { name: call.name, response: call.kind === 'specialist' ? { result: specialistText(call.result) } : call.result.response };
}

/** The round's field-reported server behaviours, kept where the run's dialect and mode render them. */
function quirks(shape: RunShape, round: GenRound): Record<string, true> {
  const python = shape.dialect === 'adk-python';
  return {
    // adk-docs PR #2076: a streamed narration whose last chunk came with the calls.
    ...(round.textWithCalls && shape.streaming && round.narration ? { callsWithLastChunk: true as const } : {}),
    // adk-python 1.22 to 2.4 (#4609, #5064): the aggregated event's calls get fresh ids.
    ...(round.reissuedIds && python && shape.streaming ? { reissuedCallIds: true as const } : {}),
    // adk-js 1.4 to 1.6 streaming (#645) sent a turn ending in calls without usage; the adk-js@2.0
    // dialect is the 2.0.0 runtime, which cannot, so it is no longer generated (the corpus scenario
    // usage_missing_call_turn keeps that replay).

  };
}

/**
 * adk-js's AgentTool never fails: a specialist whose run fails answers with the text it got (an
 * error event has none: `""`), never `{"error"}` (tools/agent_tool.js). So in adk-js a generated
 * specialist answers with what it would have said.
 */
function jsSpecialist(call: GenCall): GenCall {
  return call.kind === 'specialist' && !call.result.ok ? { ...call, result: { ok: true, summary: call.result.message } } : call;
}

function roundUnit(shape: RunShape, author: string, given: GenRound, audit: AuditContext | undefined): Unit {
  const round = shape.dialect === 'adk-js' ? { ...given, calls: given.calls.map(jsSpecialist) } : given;
  const calls = round.calls.map((c) => ({ name: c.name, args: c.kind === 'specialist' ? { request: c.request } : c.args }));
  const model: GenStep = { model: { author, ...(round.narration ? { text: round.narration.text, chunks: round.narration.chunks } : {}), calls, ...quirks(shape, round) } };
  const tools: GenStep = { tools: { author, responses: round.calls.map(responseOf) }, ...(audit ? { audit: auditFor(audit, author, round.calls) } : {}) };
  return { author, steps: [model, tools] };
}

function transferUnit(shape: RunShape, target: string): Unit {
  // adk-js returns "Transfer queued"; Python's transfer_to_agent returns None, wrapped as {"result": null} (adk-wire-format §5e).
  const response = shape.dialect === 'adk-js' ? { result: 'Transfer queued' } : { result: null };
  return {
    author: shape.coordinator,
    steps: [
      { model: { author: shape.coordinator, calls: [{ name: 'transfer_to_agent', args: { agentName: target } }] } },
      { tools: { author: shape.coordinator, transferToAgent: target, responses: [{ name: 'transfer_to_agent', response }] } },
    ],
  };
}

/** What an adk-js run says when the shape asks it to stop after a tool round (it cannot: below). */
const jsClosingAnswer = { text: 'Done.', chunks: ['Done.'] };
/** The re-invoked coordinator's answer when the shape gives none (adk-js streaming always re-invokes). */
const jsReinvokeAnswer = { text: 'The specialist has answered.', chunks: ['The specialist ', 'has answered.'] };
/** What cuts a streamed adk-js answer: the model stream fails (model_error_event_503_midstream). */
export const jsCutError = { code: '503', message: 'The model is overloaded. Please try again later.' };

/** The ending as the shape asks, made consistent with the run: what a mode cannot render becomes what it renders. */
export function effectiveEnding(shape: RunShape): GenEnding {
  const e = shape.ending;
  // The enhanced stream closes with [DONE] after everything, an error line included; its end is left to the other endings.
  if (e.kind === 'errorFrame' && shape.enhanced) return { kind: 'modelError', code: 'UNKNOWN_ERROR', message: e.message };
  // Without streaming there are no partial chunks to stop after: the turn is one complete event.
  if (e.kind === 'truncated' && !shape.streaming) return { kind: 'answer', text: e.text };
  // adk-js 2.0.0 calls the model again after every tool round (agents/llm_agent.js): a run never
  // ends at EOF right after one, so that ending is not generated for adk-js.
  if (e.kind === 'closed' && shape.dialect === 'adk-js') return { kind: 'answer', text: jsClosingAnswer };
  return e;
}

/**
 * Two places where the mock's adk-js streaming rendering departs from the real server after a
 * transfer, left out of generated runs until the mock follows the server (see docs/generated-runs.md):
 * the coordinator's metadata-only event is written after the sub-agent's first model turn rather
 * than after its whole run (a sub-agent with tool rounds), and it is written after an error line,
 * which is always the last frame of a real stream.
 */
export const mockGaps = { subAgentRoundsInJsStreaming: false, reportAfterErrorLine: false } as const;

const jsStreaming = (shape: RunShape): boolean => shape.dialect === 'adk-js' && shape.streaming;

/** A transfer result with no model step after it: its coordinator report is still owed (adk-js streaming). */
function transferReportOwed(steps: readonly GenStep[]): boolean {
  const at = steps.findLastIndex((s) => 'tools' in s && s.tools.transferToAgent !== undefined);
  return at >= 0 && !steps.slice(at + 1).some((s) => 'model' in s);
}

export function buildSteps(shape: RunShape, audit: AuditContext | undefined): GenStep[] {
  const units: Unit[] = shape.rounds.map((r) => roundUnit(shape, shape.coordinator, r, audit));
  let finalAuthor = shape.coordinator;
  if (shape.transfer) {
    // An adk-js agent is either an AgentTool's agent or a sub-agent of the tree, never both (an
    // agent has one parent, agents/base_agent.js): a transfer target the run also calls as a
    // specialist goes to field_ops, which no round calls.
    const called = (rounds: readonly GenRound[]) => rounds.some((r) => r.calls.some((c) => c.name === shape.transfer!.target));
    const clash = shape.dialect === 'adk-js' && (called(shape.rounds) || called(shape.transfer.rounds));
    finalAuthor = clash ? 'field_ops' : shape.transfer.target;
    units.push(transferUnit(shape, finalAuthor));
    const rounds = mockGaps.subAgentRoundsInJsStreaming && jsStreaming(shape) ? [] : shape.transfer.rounds;
    for (const r of rounds) units.push(roundUnit(shape, finalAuthor, r, audit));
  }
  const ending = effectiveEnding(shape);
  const js = shape.dialect === 'adk-js';
  switch (ending.kind) {
    case 'answer':
      units.push({ author: finalAuthor, steps: [{ model: { author: finalAuthor, text: ending.text.text, chunks: ending.text.chunks } }] });
      break;
    case 'truncated':
      units.push({ author: finalAuthor, steps: [{ model: { author: finalAuthor, text: ending.text.text, chunks: ending.text.chunks, truncate: true } }] });
      // adk-js ends every model stream with an aggregate or an error event (utils/streaming_utils.js):
      // a stream cut after its partial chunks is the model failing mid-answer.
      if (js) units.push({ author: finalAuthor, steps: [{ modelError: { author: finalAuthor, errorCode: jsCutError.code, errorMessage: jsCutError.message } }] });
      break;
    case 'modelError':
      units.push({ author: finalAuthor, steps: [{ modelError: { author: finalAuthor, errorCode: ending.code, errorMessage: ending.message, ...(js ? finishOf(ending.code) : {}) } }] });
      break;
    case 'errorFrame':
    case 'closed':
      break;
  }
  // After a transfer, adk-js runs the coordinator again only when streaming (agents/llm_agent.js
  // runAsyncImpl: the trailing report closes its step), and then always, whatever the sub-agent
  // ended with; Python renders the shape's optional second answer after a final one.
  const again = shape.transfer && ending.kind !== 'errorFrame' && ending.kind !== 'closed'
    ? js ? (shape.streaming ? shape.transfer.reinvoke ?? jsReinvokeAnswer : undefined) : ending.kind === 'answer' ? shape.transfer.reinvoke : undefined
    : undefined;
  if (again) units.push({ author: shape.coordinator, steps: [{ model: { author: shape.coordinator, text: again.text, chunks: again.chunks } }] });
  // adk-js's unknown-tool error stands where the round's tool results would be (GenMidError).
  const rounds = units.filter((u) => u.steps.length === 2 && 'tools' in u.steps[1]! && u.steps[1].tools.transferToAgent === undefined);
  // The unknown tool is one its agent lacks: a round whose last tool the agent calls in another
  // round too (so it has it) cannot be that round.
  const lastCall = (u: Unit): string | undefined => { const m = u.steps[0]; return m && 'model' in m ? m.model.calls?.at(-1)?.name : undefined; };
  const calledElsewhere = (u: Unit): boolean => rounds.some((o) => o !== u && o.author === u.author && 'model' in o.steps[0]! && (o.steps[0].model.calls ?? []).some((c) => c.name === lastCall(u)));
  const midErrorRounds = shape.dialect === 'adk-js' && !shape.streaming && rounds.length > 0 ? new Set(shape.midErrors.map((m) => rounds[m.round % rounds.length]!).filter((u) => !calledElsewhere(u))) : new Set<Unit>();
  const steps: GenStep[] = units.flatMap((unit) => {
    if (!midErrorRounds.has(unit)) return unit.steps;
    const call = unit.steps[0]!;
    const name = 'model' in call ? call.model.calls?.at(-1)?.name ?? 'tool' : 'tool';
    return [call, { modelError: { author: unit.author, errorCode: 'UNKNOWN_ERROR', errorMessage: `Function ${name} is not found in the toolsDict.` } }];
  });
  if (ending.kind === 'errorFrame') {
    // "The error frame is the last frame, then EOF" (adk-python-facts §1.3 step 9), at any point of the run.
    let kept = steps.slice(0, ending.at % (steps.length + 1));
    let message = ending.message;
    if (js) {
      // adk-js writes the line for an exception outside the event path (research §6): the session
      // service failing the next LLM call's events after a tool round, or the request's own
      // "No parts" at once. Elsewhere in a run there is nothing to throw one.
      while (kept.length > 0 && !('tools' in kept[kept.length - 1]!)) kept.pop();
      if (kept.length === 0) message = 'No parts in the newMessage.';
    }
    while (mockGaps.reportAfterErrorLine && jsStreaming(shape) && transferReportOwed(kept)) kept.pop();
    const style = shape.dialect === 'adk-python' ? ending.style : 'dialect';
    return [...kept, { errorFrame: { message, ...(style !== 'dialect' ? { style } : {}) } }];
  }
  return steps;
}

/** adk-js reports a refused or malformed answer from the candidate's finishReason (models/llm_response.js). */
function finishOf(code: string): { finishReason?: string } {
  return code === 'SAFETY' || code === 'MALFORMED_FUNCTION_CALL' ? { finishReason: code } : {};
}

function familyOf(shape: RunShape, ending: GenEnding): GenScenario['family'] {
  if (shape.framing.length > 0) return 'framing';
  if (ending.kind === 'modelError' || ending.kind === 'errorFrame') return 'errors';
  if (shape.enhanced) return 'audit';
  if (shape.transfer) return 'transfer';
  if (ending.kind === 'closed' || ending.kind === 'truncated') return 'missing-done';
  return shape.rounds.length === 0 ? 'streaming' : 'delegation';
}

function specRefsOf(shape: RunShape, ending: GenEnding): GenScenario['specRefs'] {
  const refs = [{ doc: 'seed-001', section: 'Event Flow Sequence' }];
  refs.push(shape.dialect === 'adk-js' ? { doc: 'adk-wire-format', section: '§5d' } : { doc: 'adk-python-facts', section: '3.2' });
  if (shape.transfer) refs.push({ doc: 'adk-wire-format', section: '§5e' });
  if (ending.kind === 'modelError' || ending.kind === 'errorFrame' || (shape.midErrors.length > 0 && shape.dialect === 'adk-js' && !shape.streaming)) refs.push({ doc: 'adk-wire-format', section: '6. Errors' });
  if (shape.enhanced) refs.push({ doc: 'seed-000', section: '§2.2B' });
  if (shape.framing.length > 0) refs.push({ doc: 'whatwg-sse', section: '9.2.6' });
  return refs;
}

export function buildScenario(shape: RunShape): GenScenario {
  const tag = shapeTag(shape);
  const sessionId = `s-gen-${tag}`;
  const invocationId = invocationIdOf(tag);
  let auditN = 0;
  const audit = shape.enhanced ? { invocationId, sessionId, next: () => ++auditN } : undefined;
  const steps = buildSteps(shape, audit);
  const ending = effectiveEnding(shape);
  const calls = shape.rounds.reduce((n, r) => n + r.calls.length, 0) + (shape.transfer?.rounds.reduce((n, r) => n + r.calls.length, 0) ?? 0);
  const tags = ['generated', shape.streaming ? 'streaming' : 'non-streaming', ...(shape.transfer ? ['transfer'] : []), ...(shape.enhanced ? ['enhanced', 'audit'] : []), ...(shape.framing.length > 0 ? ['framing'] : []), `ending-${ending.kind.toLowerCase()}`];
  const scenario: Omit<GenScenario, 'expect'> = {
    id: `gen_${tag}`,
    title: `a generated ${shape.dialect} run with ${shape.rounds.length} delegation rounds and ${calls} calls${shape.transfer ? ' and a transfer' : ''} ends with ${ending.kind}`,
    family: familyOf(shape, ending),
    tags: [...new Set(tags)],
    specRefs: specRefsOf(shape, ending),
    dialect: shape.dialect,
    replays: `a fast-check generated run (harness/arbitraries) rendered in ${shape.dialect}${shape.streaming ? ' streaming' : ''}: the real server's event sequence for this script, with expectations from the independent model of harness/arbitraries/model.ts.`,
    session: { userId: 'u1', sessionId },
    request: { message: shape.message, streaming: shape.streaming, ...(shape.enhanced ? { endpoint: '/run_sse_enhanced' as const } : {}) },
    upstream: { kind: 'run', steps, ...(shape.enhanced ? { invocationId } : {}) },
    // Framing variants need a body to act on; an empty run has none.
    ...(shape.framing.length > 0 && steps.length > 0 ? { faults: shape.framing } : {}),
  };
  return { ...scenario, expect: expectFor(scenario) };
}

/** The same run under another id and session (a batch needs unique app names). */
export function withId(s: GenScenario, id: string): GenScenario {
  return { ...s, id, session: { ...s.session, sessionId: `s-${id.replace(/_/g, '-')}` } };
}
