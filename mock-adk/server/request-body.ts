/**
 * How each imitated server reads a JSON request body, so bad input gets that server's answer.
 *
 * adk-js: "JSON bodies are parsed by `express.json({limit:"50mb"})` only when `Content-Type:
 * application/json`" (wire-format §1); anything else leaves the body `{}`. body-parser is strict:
 * only an object or an array parses. A body that does not parse gets Express's 400 HTML page.
 *
 * adk-python: FastAPI reads JSON when the content type is absent or JSON; a body that does not
 * parse, or that misses a required field, gets a 422 `{"detail":[...]}` (python-facts §1.1).
 */
import type { Dialect } from '../core/types.ts';
import { dialects, isAdkJs } from '../core/dialects/index.ts';
import type { Answer, MockRequest } from './route-types.ts';

export type BodyOutcome = { ok: true; value: unknown } | { ok: false; answer: Answer };

export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === 'application/json') return true;
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json';
}

/** FastAPI's test: `application/json` or any `application/*+json`. */
function isFastApiJson(value: string | undefined): boolean {
  if (value === undefined) return true;
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export function readJsonBody(dialect: Dialect, request: MockRequest): BodyOutcome {
  const contentType = request.headers['content-type'];
  if (isAdkJs(dialect)) {
    if (!isJsonContentType(contentType) || request.body.length === 0) return { ok: true, value: {} };
    const lead = request.body[0];
    const first = lead === '{' || lead === '[' ? lead : request.body.trimStart()[0];
    // body-parser's strict mode: "only accept arrays and objects".
    if (first !== '{' && first !== '[') return { ok: false, answer: malformed(dialect, request.body) };
  } else {
    if (request.body.length === 0) return { ok: true, value: undefined };
    if (!isFastApiJson(contentType)) return { ok: true, value: request.body };
  }
  try {
    return { ok: true, value: JSON.parse(request.body) as unknown };
  } catch {
    return { ok: false, answer: malformed(dialect, request.body) };
  }
}

/**
 * The dialect's answer to a body that does not parse. Python's json module accepts a few texts
 * JSON.parse refuses (NaN, Infinity); the mock cannot read those either, so it answers them as
 * FastAPI answers a body it cannot use.
 */
function malformed(dialect: Dialect, body: string): Answer {
  try {
    return dialects[dialect].malformedJson(body);
  } catch {
    return validationError([{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body }]);
  }
}

/** One pydantic error of a FastAPI 422 body. */
export type PydanticIssue = { type: string; loc: Array<string | number>; msg: string; input: unknown; ctx?: Record<string, unknown> };

export function validationError(issues: PydanticIssue[]): Answer {
  return dialects['adk-python'].json(422, { detail: issues });
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
