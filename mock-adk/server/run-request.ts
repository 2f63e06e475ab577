/**
 * The body of `POST /run`, `/run_sse` and `/run_sse_enhanced`, read the way each server reads it.
 *
 * adk-js: "Keys are camelCase only; the server destructures `req.body`. Nothing is
 * schema-validated" (wire-format §2): a missing id simply finds no session ("Session not found:
 * undefined"), a missing `newMessage` runs nothing.
 * adk-python: a pydantic model; "Clients may send either camelCase or snake_case", missing or
 * mistyped fields are a 422, and Gen C checks `app_name` against `^[a-zA-Z0-9_]+$` (python-facts §1.2).
 * adk-python 2.x (`RunAgentRequest` in google/adk-python `src/google/adk/cli/api_server.py`
 * @024a438920293e9de5f95b58c0669f858d39fa6f): `app_name: Optional[str] = None` with no pattern
 * check (the handler falls back to ADK_DEFAULT_APP_NAME), and `custom_metadata: Optional[dict]`.
 * adk-go: its own decoder (run-request-go.ts).
 */
import { goError } from '../core/dialects/adk-go.ts';
import { isAdkJs } from '../core/dialects/names.ts';
import type { Dialect } from '../core/types.ts';
import type { Answer, MockRequest } from './route-types.ts';
import { decodeGoRunRequest } from './run-request-go.ts';
import { isPlainObject, readJsonBody, validationError, type PydanticIssue } from './request-body.ts';

export type RunRequest = {
  appName: string;
  userId: string;
  sessionId: string;
  /** Whether the body carried a `newMessage` at all. */
  hasMessage: boolean;
  /** How many parts `newMessage.parts` holds (0 when absent). */
  partCount: number;
  streaming: boolean;
  stateDelta: Record<string, unknown> | undefined;
};

export type RunRequestOutcome = { ok: true; run: RunRequest } | { ok: false; answer: Answer };

/** `route`: adk-go words a decode error differently on `/run` (NewErrorHandler) and `/run_sse`. */
export function parseRunRequest(dialect: Dialect, request: MockRequest, route: 'sse' | 'json' = 'sse'): RunRequestOutcome {
  if (dialect === 'adk-go@2.0.0') {
    const decoded = decodeGoRunRequest(request.body);
    if (decoded.ok) return decoded;
    // RunSSEHandler: http.Error(rw, "failed to decode request body: "+err.Error(), 400), err being
    // decodeRequestBody's statusError "failed to decode request: %w".
    const message = `failed to decode request: ${decoded.message}`;
    return { ok: false, answer: goError(400, route === 'sse' ? `failed to decode request body: ${message}` : message) };
  }
  const body = readJsonBody(dialect, request);
  if (!body.ok) return body;
  return isAdkJs(dialect) ? readJs(body.value) : readPython(body.value, dialect === 'adk-python@2.x');
}

function readJs(value: unknown): RunRequestOutcome {
  // `const {appName, userId, sessionId, newMessage, streaming, stateDelta} = req.body`: an array
  // destructures to undefined fields, and a template literal prints them as Express would.
  const body = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const message = body['newMessage'];
  const stateDelta = body['stateDelta'];
  return {
    ok: true,
    run: {
      appName: String(body['appName']),
      userId: String(body['userId']),
      sessionId: String(body['sessionId']),
      hasMessage: message !== undefined && message !== null,
      partCount: partsOf(message),
      streaming: Boolean(body['streaming']),
      stateDelta: isPlainObject(stateDelta) ? stateDelta : undefined,
    },
  };
}

function partsOf(message: unknown): number {
  if (!isPlainObject(message)) return 0;
  const parts = message['parts'];
  return Array.isArray(parts) ? parts.length : 0;
}

const pythonFields = [['appName', 'app_name'], ['userId', 'user_id'], ['sessionId', 'session_id']] as const;
const appNamePattern = /^[a-zA-Z0-9_]+$/;

function readPython(value: unknown, gen2x: boolean): RunRequestOutcome {
  if (value === undefined) return fail([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  if (!isPlainObject(value)) return fail([{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: value }]);
  const issues: PydanticIssue[] = [];
  const ids: string[] = [];
  for (const [alias, name] of pythonFields) {
    // populate_by_name: the alias wins when both are sent; `loc` names the alias (issue #4100).
    const field = alias in value ? value[alias] : value[name];
    // 2.x: `app_name: Optional[str] = None`, no validator; "" or None fall back to the default app.
    if (gen2x && alias === 'appName') {
      if (field !== undefined && field !== null && typeof field !== 'string') issues.push({ type: 'string_type', loc: ['body', alias], msg: 'Input should be a valid string', input: field });
      ids.push(typeof field === 'string' ? field : '');
      continue;
    }
    if (field === undefined) issues.push({ type: 'missing', loc: ['body', alias], msg: 'Field required', input: value });
    else if (typeof field !== 'string') issues.push({ type: 'string_type', loc: ['body', alias], msg: 'Input should be a valid string', input: field });
    else if (alias === 'appName' && !appNamePattern.test(field)) issues.push({ type: 'value_error', loc: ['body', alias], msg: `Value error, Invalid app name: '${field}'. It must match ^[a-zA-Z0-9_]+$`, input: field, ctx: { error: {} } });
    ids.push(typeof field === 'string' ? field : '');
  }
  const message = 'newMessage' in value ? value['newMessage'] : value['new_message'];
  if (message !== undefined && message !== null && !isPlainObject(message)) {
    issues.push({ type: 'model_attributes_type', loc: ['body', 'newMessage'], msg: 'Input should be a valid dictionary or object to extract fields from', input: message });
  }
  const streaming = pydanticBool(value['streaming']);
  if (streaming === 'invalid') issues.push({ type: 'bool_parsing', loc: ['body', 'streaming'], msg: 'Input should be a valid boolean, unable to interpret input', input: value['streaming'] });
  const stateDelta = 'stateDelta' in value ? value['stateDelta'] : value['state_delta'];
  if (stateDelta !== undefined && stateDelta !== null && !isPlainObject(stateDelta)) {
    issues.push({ type: 'dict_type', loc: ['body', 'stateDelta'], msg: 'Input should be a valid dictionary', input: stateDelta });
  }
  const customMetadata = 'customMetadata' in value ? value['customMetadata'] : value['custom_metadata'];
  if (gen2x && customMetadata !== undefined && customMetadata !== null && !isPlainObject(customMetadata)) {
    issues.push({ type: 'dict_type', loc: ['body', 'customMetadata'], msg: 'Input should be a valid dictionary', input: customMetadata });
  }
  if (issues.length > 0) return fail(issues);
  const [appName = '', userId = '', sessionId = ''] = ids;
  return {
    ok: true,
    run: {
      appName,
      userId,
      sessionId,
      hasMessage: message !== undefined && message !== null,
      partCount: partsOf(message),
      streaming: streaming === true,
      stateDelta: isPlainObject(stateDelta) ? stateDelta : undefined,
    },
  };
}

/** pydantic's lax bool: booleans, 0/1, and the usual words. */
function pydanticBool(value: unknown): boolean | 'invalid' {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === 'string') {
    const word = value.toLowerCase();
    if (['1', 'true', 't', 'yes', 'y', 'on'].includes(word)) return true;
    if (['0', 'false', 'f', 'no', 'n', 'off'].includes(word)) return false;
  }
  return 'invalid';
}

function fail(issues: PydanticIssue[]): RunRequestOutcome {
  return { ok: false, answer: validationError(issues) };
}
