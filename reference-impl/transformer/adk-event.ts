/**
 * Read-only views of one ADK event that hold for both dialects (adk-wire-format §4, adk-python-facts
 * §2): which parts it carries, whether it is a streaming chunk, a model error, or metadata only.
 * Nothing here trusts the wire: a missing or mistyped field reads as absent.
 */
import type { AdkEvent, AdkPart, BriefingUsage } from './types.ts';

export type Call = { id: string | undefined; name: string; args: Record<string, unknown> };
export type Response = { id: string | undefined; name: string; response: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function partsOf(event: AdkEvent): AdkPart[] {
  const parts = event.content?.parts;
  return Array.isArray(parts) ? parts.filter(isRecord) : [];
}

export const authorOf = (event: AdkEvent): string => str(event.author) ?? 'unknown';
export const invocationOf = (event: AdkEvent): string | undefined => str(event.invocationId);
/** `partial` is the only chunk marker that matters (adk-wire-format §5b). */
export const isPartial = (event: AdkEvent): boolean => event.partial === true;
export const errorCodeOf = (event: AdkEvent): string | undefined => (event.errorCode === undefined || event.errorCode === null ? undefined : String(event.errorCode));
export const finishReasonOf = (event: AdkEvent): string | undefined => str(event.finishReason);

/** The answer text: text parts that are not thoughts, joined as the aggregator joins deltas. */
export function textOf(event: AdkEvent): string {
  return partsOf(event).filter((p) => typeof p.text === 'string' && p.thought !== true).map((p) => p.text as string).join('');
}

export function callsOf(event: AdkEvent): Call[] {
  const calls: Call[] = [];
  for (const part of partsOf(event)) {
    const call = part.functionCall;
    if (!isRecord(call)) continue;
    calls.push({ id: str(call.id), name: str(call.name) ?? 'unknown_tool', args: isRecord(call.args) ? call.args : {} });
  }
  return calls;
}

export function responsesOf(event: AdkEvent): Response[] {
  const responses: Response[] = [];
  for (const part of partsOf(event)) {
    const r = part.functionResponse;
    if (!isRecord(r)) continue;
    responses.push({ id: str(r.id), name: str(r.name) ?? 'unknown_tool', response: r.response });
  }
  return responses;
}

/** Python omits the field on text events; both send `[]` for ordinary calls (adk-python-facts §1.6). */
export function longRunningIdsOf(event: AdkEvent): string[] {
  return Array.isArray(event.longRunningToolIds) ? event.longRunningToolIds.filter((id): id is string => typeof id === 'string') : [];
}

/** No parts and no error: adk-js's trailing usage report after a tool round, or an actions-only split frame. */
export function isMetadataOnly(event: AdkEvent): boolean {
  return !somePart(event, anyPart) && errorCodeOf(event) === undefined;
}

/**
 * Whether some part passes `test`: the yes/no questions asked of every event (completion, the
 * tap) read the parts in place, where partsOf, callsOf and textOf build arrays and strings.
 */
export function somePart(event: AdkEvent, test: (part: AdkPart) => boolean): boolean {
  const parts = event.content?.parts;
  if (!Array.isArray(parts)) return false;
  for (const part of parts) if (isRecord(part) && test(part)) return true;
  return false;
}

// Module-level tests: a closure made at each call would be garbage per event.
const anyPart = (): boolean => true;
const isString = (id: unknown): boolean => typeof id === 'string';
const hasAnswerText = (p: AdkPart): boolean => typeof p.text === 'string' && p.text.length > 0 && p.thought !== true;
/** A part with a function call: exactly the parts callsOf lists. */
export const isCallPart = (p: AdkPart): boolean => isRecord(p.functionCall);
/** A part with a function response: exactly the parts responsesOf lists. */
export const isResponsePart = (p: AdkPart): boolean => isRecord(p.functionResponse);
const hasLongRunningIds = (event: AdkEvent): boolean => Array.isArray(event.longRunningToolIds) && event.longRunningToolIds.some(isString);

export function actionOf(event: AdkEvent, key: string): unknown {
  return isRecord(event.actions) ? event.actions[key] : undefined;
}

/** The transfer target of a transfer_to_agent call: `agentName` in adk-js, `agent_name` in Python (adk-wire-format §5e). */
export function transferTarget(call: Call): string | undefined {
  if (call.name !== 'transfer_to_agent') return undefined;
  return str(call.args.agentName) ?? str(call.args.agent_name) ?? 'unknown_agent';
}

/**
 * Seed 001's final-response rule, corrected for the real server (adk-wire-format §5, adk-python-facts
 * §2.2 is_final_response): answer text, no function call or response, not a chunk, no long-running
 * call, no error. `finishReason` is checked by the callers that need it.
 */
export function isAnswerEvent(event: AdkEvent): boolean {
  // textOf(event) is non-empty exactly when some non-thought text part is non-empty.
  return !isPartial(event) && somePart(event, hasAnswerText) && !somePart(event, isCallPart) && !somePart(event, isResponsePart)
    && !hasLongRunningIds(event) && errorCodeOf(event) === undefined;
}

const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

/**
 * The token counts an event reported, or null when it carries no usageMetadata. Copied as they
 * are: a count the event did not report is null, never 0 (adk-js #645).
 */
export function usageOf(event: AdkEvent): BriefingUsage | null {
  const u = event.usageMetadata;
  if (!isRecord(u)) return null;
  return { prompt_token_count: count(u.promptTokenCount), candidates_token_count: count(u.candidatesTokenCount), total_token_count: count(u.totalTokenCount) };
}
