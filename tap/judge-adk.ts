/**
 * Judging one ADK event or error line as it passes (ADK-EVT-001, ADK-KEY-001, ADK-ERR-001,
 * ADK-SSE-002's per-event rules). Pure functions of the frame and what the run saw before it.
 *
 * The dialect is read off each event (adk-wire-format §7, adk-python-facts §2.5): adk-js stamps
 * integer milliseconds, adk-python float seconds, adk-go no timestamp at all (and writes
 * `groundingMetadata: null`); the response headers (Express, uvicorn, Go) decide for lines
 * without an event, such as an error line that is the whole stream.
 */
import { pyDumps } from '../mock-adk/core/dialects/py-json.ts';
import { serverOf } from '../recorder/dialect.ts';
import { schemaDocument, validate, type SchemaIssue } from '../schemas/registry.ts';
import { finding } from '../harness/checks/gateway/types.ts';
import type { Finding } from '../harness/model.ts';
import type { StreamDialect, TapFrame } from './types.ts';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields ADK servers write (schemas/adk-event.schema.json `eventFields`: both dialects, and adk-go's subset). */
const eventFieldNames: ReadonlySet<string> = (() => {
  const definitions = schemaDocument('adk-event').definitions as Record<string, { properties?: Record<string, unknown> }> | undefined;
  const names = Object.keys(definitions?.eventFields?.properties ?? {});
  if (names.length === 0) throw new Error('schemas/adk-event.schema.json has no definitions.eventFields.properties: the tap reads the ADK field list from there');
  return new Set(names);
})();

/** adk-go's events (mock-adk/core/dialects/adk-go.ts, models.Event): no timestamp; these keys always. */
const goRequired = ['id', 'invocationId', 'author', 'actions'] as const;

/** The dialect one event shows, or `hint` (the headers') when the event shows none. */
export function eventDialect(json: Json, hint: StreamDialect): StreamDialect {
  const ts = json.timestamp;
  if (typeof ts === 'number') return ts >= 1e11 ? 'adk-js' : 'adk-python';
  if (ts === undefined && (Object.hasOwn(json, 'groundingMetadata') || hint === 'adk-go')) return 'adk-go';
  return hint;
}

/** What the response headers say about the server: Express is adk-js, uvicorn adk-python, net/http's nosniff adk-go. */
export function headerDialect(headers: ReadonlyArray<readonly [string, string]>): StreamDialect {
  const server = serverOf(headers);
  return server === 'express' ? 'adk-js' : server === 'uvicorn' ? 'adk-python' : server === 'go' ? 'adk-go' : 'unknown';
}

/** A frame's path in a finding (`frame[3]`), built only when a finding needs it (most events have none). */
export const frameAt = (index: number): string => `frame[${index}]`;

const issueText = (issues: readonly SchemaIssue[]): string => issues.slice(0, 3).map((i) => `${i.path || '/'} ${i.message}`).join('; ');

/** ADK-EVT-001 and ADK-KEY-001 for one event; `streamDialect` is the dialect of the stream's first event. */
export function judgeEvent(frame: TapFrame, json: Json, dialect: StreamDialect, streamDialect: StreamDialect | undefined): Finding[] {
  const out: Finding[] = [];
  if (dialect === 'adk-go') {
    const missing = goRequired.filter((k) => !Object.hasOwn(json, k));
    if (missing.length > 0) out.push(finding('ADK-EVT-001', 'schema-invalid', frameAt(frame.index), `the adk-go event lacks ${missing.join(', ')}, which adk-go writes on every event`, goRequired, Object.keys(json)));
    else if (!isRecord(json.actions) || !isRecord(json.actions.stateDelta) || !isRecord(json.actions.artifactDelta)) out.push(finding('ADK-EVT-001', 'schema-invalid', `${frameAt(frame.index)}/actions`, 'the adk-go event\'s actions lack the stateDelta and artifactDelta maps adk-go always writes', { stateDelta: {}, artifactDelta: {} }, json.actions));
  } else {
    const ref = dialect === 'adk-js' ? 'adk-event#/definitions/adkJsEvent' : dialect === 'adk-python' ? 'adk-event#/definitions/adkPythonEvent' : 'adk-event';
    const result = validate(ref, json);
    if (!result.valid) {
      const first = result.errors[0];
      out.push(finding('ADK-EVT-001', 'schema-invalid', `${frameAt(frame.index)}${first?.path ?? ''}`, `the event is not a valid ${dialect === 'unknown' ? 'ADK' : dialect} event: ${issueText(result.errors)}`, `valid against schemas/${ref.replace('#', '.schema.json#')}`, json));
    }
  }
  let unknown: string[] | undefined;
  for (const k in json) if (!eventFieldNames.has(k)) (unknown ??= []).push(k);
  if (unknown !== undefined) out.push(finding('ADK-KEY-001', 'unknown-key', `${frameAt(frame.index)}/${unknown[0]}`, `the event has ${unknown.length === 1 ? 'a key' : 'keys'} no ADK server writes: ${unknown.join(', ')}${unknown.some((k) => k.includes('_') && k !== '_audit_metadata') ? ' (snake_case: ADK writes camelCase)' : ''}`, 'ADK event fields (camelCase)', unknown));
  if (streamDialect !== undefined && streamDialect !== 'unknown' && dialect !== 'unknown' && dialect !== streamDialect) {
    out.push(finding('ADK-KEY-001', 'mixed-dialects', frameAt(frame.index), `the event is in the ${dialect} dialect, but the stream's first event was ${streamDialect}: one server writes one dialect`, streamDialect, dialect));
  }
  return out;
}

const adkErrorRefs = ['adkError', 'adkStructuredError', 'adkEmptyError'].map((d) => `sse-error-frame#/definitions/${d}` as const);

/** ADK-ERR-001 for one error line: its JSON shape, its dialect's bytes, and `event: error` on adk-go. */
export function judgeErrorLine(frame: TapFrame, dialect: StreamDialect, legacy: boolean): Finding[] {
  const at = frameAt(frame.index);
  if (legacy) return [finding('ADK-ERR-001', 'error-line-not-json', at, 'the error line is not JSON (adk-python Gen A\'s unescaped message): a client that parses JSON loses the error', 'a JSON error line', frame.data.slice(0, 200))];
  const json = frame.json;
  if (!adkErrorRefs.some((ref) => validate(ref, json).valid)) {
    return [finding('ADK-ERR-001', 'error-line-shape', at, 'the error line is none of the ADK forms: {"error": "<message>"}, adk-python Gen D\'s {"error", "error_details"}, or adk-js\'s {} for a non-Error throw', 'an ADK error line', json)];
  }
  const out: Finding[] = [];
  if (dialect === 'adk-go') {
    if (frame.event !== 'error') out.push(finding('ADK-ERR-001', 'error-line-event', at, 'adk-go names its error line with `event: error` (flashErrorEvent); this one has no such field', 'error', frame.event ?? null));
    return out;
  }
  if (frame.event !== undefined) out.push(finding('ADK-ERR-001', 'error-line-event', at, `an ${dialect === 'unknown' ? 'ADK' : dialect} error line has no event field; this one has 'event: ${frame.event}'`, null, frame.event));
  const compact = JSON.stringify(json);
  const dumped = (() => { try { return pyDumps(json); } catch { return compact; } })();
  const structured = isRecord(json) && Object.hasOwn(json, 'error_details');
  // Gen D's structured line is written by FastAPI's encoder, not json.dumps: only its shape is fixed.
  if (!structured) {
    const accepted = dialect === 'adk-js' ? [compact] : dialect === 'adk-python' ? [dumped] : [compact, dumped];
    if (!accepted.includes(frame.data)) {
      const form = dialect === 'adk-js' ? 'JSON.stringify\'s compact form' : dialect === 'adk-python' ? 'json.dumps\'s form (", " and ": " separators, non-ASCII escaped)' : 'adk-js\'s compact form or adk-python\'s json.dumps form';
      out.push(finding('ADK-ERR-001', 'error-line-bytes', at, `the error line is not in ${form}`, accepted[0], frame.data.slice(0, 200)));
    }
  }
  return out;
}
