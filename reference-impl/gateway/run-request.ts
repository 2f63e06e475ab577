/**
 * The canonical request body: checked against `schemas/run-agent-request`, then forwarded the way
 * seed 004's gateway does it, `json=request.model_dump(by_alias=True, exclude_none=True)`:
 * re-serialised (compact JSON, like httpx's `json=`), never the received bytes. That means
 *   - the model's fields only, in its order: appName, userId, sessionId, newMessage, streaming,
 *     stateDelta, invocationId (unknown top-level fields are dropped: pydantic `extra='ignore'`);
 *   - camelCase aliases even when the client sent `app_name` (`populate_by_name=True`);
 *   - `streaming` always present (`streaming: bool = False` is a default, not None);
 *   - null optional fields omitted (`exclude_none`), also inside `newMessage` (a pydantic Content).
 * `stateDelta` is a plain dict, forwarded as received.
 */
import { validate } from '../../schemas/registry.ts';

export type RequestIssue = { path: string; message: string };

export type CheckedRequest = { ok: true; json: string; fields: { appName: string; userId: string; sessionId: string } } | { ok: false; reason: string; issues: RequestIssue[] };

export function checkRunAgentRequest(body: unknown): CheckedRequest {
  const result = validate('run-agent-request', body);
  if (!result.valid) {
    const issues = result.errors.map((issue) => {
      // ajv reports a missing property at its parent; name the property itself.
      const missing = issue.keyword === 'required' ? (issue.params as { missingProperty?: string }).missingProperty : undefined;
      return { path: missing !== undefined ? `${issue.path}/${missing}` : issue.path || '/', message: issue.message };
    });
    const first = issues[0];
    return { ok: false, reason: first ? `${first.path}: ${first.message}` : 'the body does not match run-agent-request', issues };
  }
  const json = modelDump(body as Record<string, unknown>);
  const dumped = JSON.parse(json) as { appName: string; userId: string; sessionId: string };
  return { ok: true, json, fields: { appName: dumped.appName, userId: dumped.userId, sessionId: dumped.sessionId } };
}

const FIELDS = [
  ['appName', 'app_name'],
  ['userId', 'user_id'],
  ['sessionId', 'session_id'],
  ['newMessage', 'new_message'],
  ['streaming', 'streaming'],
  ['stateDelta', 'state_delta'],
  ['invocationId', 'invocation_id'],
] as const;

/** `request.model_dump(by_alias=True, exclude_none=True)`, serialised compactly. */
export function modelDump(body: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const [alias, name] of FIELDS) {
    const value = body[alias] !== undefined ? body[alias] : body[name];
    if (alias === 'streaming') { out.streaming = value === null || value === undefined ? false : value; continue; }
    if (value === null || value === undefined) continue;
    out[alias] = alias === 'newMessage' ? dropNulls(value) : value;
  }
  return JSON.stringify(out);
}

function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null).map(([k, v]) => [k, dropNulls(v)]));
  }
  return value;
}
