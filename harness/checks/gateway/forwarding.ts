/**
 * GW-PASS-002: seed 004 § Streaming Pattern, `json=request.model_dump(by_alias=True,
 * exclude_none=True)`: the gateway forwards the client's request to the upstream `/run_sse` with
 * the same fields and values. The gateway may re-serialise (the seed's httpx does), so the bodies
 * compare as JSON values, not as text; the client sends only the model's fields, with `streaming`
 * explicit, so a faithful forward is equal as a value.
 *
 * GW-ENH-001 (its forwarding half): a `/run_sse_enhanced` request goes to the upstream's
 * `/run_sse_enhanced` (seed 000 §2.2B), or the audit metadata never appears.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { fail, finding, judge, untested, type Exchange, type StreamRun, type UpstreamRequest } from './types.ts';

export type JsonDifference = { path: string; expected: unknown; actual: unknown };

const pointer = (path: string, key: string | number) => `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The first place where `actual` differs from `expected` as a JSON value (key order ignored). */
export function jsonDifference(expected: unknown, actual: unknown, path = ''): JsonDifference | undefined {
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual)) return { path: path || '/', expected, actual };
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      if (i >= expected.length || i >= actual.length) return { path: pointer(path, i), expected: expected[i], actual: actual[i] };
      const d = jsonDifference(expected[i], actual[i], pointer(path, i));
      if (d) return d;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object' && actual !== null && typeof actual === 'object') {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (!(key in a)) return { path: pointer(path, key), expected: e[key], actual: undefined };
      const d = jsonDifference(e[key], a[key], pointer(path, key));
      if (d) return d;
    }
    for (const key of Object.keys(a)) if (!(key in e)) return { path: pointer(path, key), expected: undefined, actual: a[key] };
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : { path: path || '/', expected, actual };
}

const runPaths = new Set(['/run_sse', '/run_sse_enhanced']);

export function upstreamRuns(journal: UpstreamRequest[]): UpstreamRequest[] {
  return journal.filter((r) => r.method === 'POST' && runPaths.has(r.url.split('?')[0] ?? ''));
}

export type ForwardingCase = {
  scenario: string;
  endpoint: StreamRun['endpoint'];
  sent: Record<string, unknown>;
  exchange: Exchange;
  journal: StreamRun['journal'];
  /**
   * Said when the body is one the gateway must take (seed 004's RunAgentRequest, e.g. parts other
   * than text): a validation refusal (400, 422) of it is then a failure, not a reason to leave
   * GW-PASS-002 untested.
   */
  validBody?: string;
};

/** The statuses a gateway refuses a body it will not validate with (FastAPI 422, a plain 400). */
const validationRefusals = new Set([400, 422]);

export function checkForwarding(run: ForwardingCase): CheckOutcome[] {
  const id = run.scenario;
  const enhanced = run.endpoint === '/run_sse_enhanced';
  const out = (outcome: CheckOutcome, enh?: CheckOutcome): CheckOutcome[] => (enhanced && enh ? [outcome, enh] : [outcome]);
  if (!Array.isArray(run.journal)) {
    const reason = `the mock's request journal could not be read: ${run.journal.error}`;
    return out(untested('GW-PASS-002', id, reason), untested('GW-ENH-001', id, reason));
  }
  const runs = upstreamRuns(run.journal);
  if (runs.length === 0 && run.validBody !== undefined && validationRefusals.has(run.exchange.status ?? 0)) {
    const f = finding('GW-PASS-002', 'valid-body-refused', 'status', `the gateway refused ${run.validBody} with HTTP ${run.exchange.status} and sent nothing upstream; seed 004's newMessage.parts is an "Array of content parts (text, functionCall, etc.)"`, 200, run.exchange.status);
    return out(fail('GW-PASS-002', id, [f]), untested('GW-ENH-001', id, 'no upstream request was made'));
  }
  if (runs.length === 0 && run.exchange.status !== 200) {
    const reason = run.exchange.status === undefined ? 'the gateway did not answer' : `the gateway answered HTTP ${run.exchange.status} and made no upstream request`;
    return out(untested('GW-PASS-002', id, reason), untested('GW-ENH-001', id, reason));
  }
  if (runs.length === 0) {
    const f = finding('GW-PASS-002', 'no-upstream-request', 'upstream', `the gateway streamed a response but the mock received no POST ${run.endpoint} for session ${String(run.sent.sessionId)}`, `POST ${run.endpoint}`, null);
    return out(fail('GW-PASS-002', id, [f]), untested('GW-ENH-001', id, 'no upstream request was made'));
  }
  const findings: Finding[] = [];
  if (runs.length > 1) findings.push(finding('GW-PASS-002', 'upstream-request-repeated', 'upstream', `the mock received ${runs.length} run requests for one client request; an ADK run is not idempotent`, 1, runs.length));
  const first = runs[0] as UpstreamRequest;
  const path = first.url.split('?')[0] ?? '';
  const enhFindings: Finding[] = [];
  if (path !== run.endpoint) {
    if (enhanced) enhFindings.push(finding('GW-ENH-001', 'wrong-upstream-endpoint', 'upstream:url', `the client called ${run.endpoint} but the gateway called the upstream's ${path}, so the audit metadata is lost`, run.endpoint, path));
    else findings.push(finding('GW-PASS-002', 'wrong-upstream-endpoint', 'upstream:url', `the client called ${run.endpoint} but the gateway called the upstream's ${path}`, run.endpoint, path));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(first.body);
  } catch (error) {
    findings.push(finding('GW-PASS-002', 'upstream-body-not-json', 'upstream:body', `the body the gateway sent upstream is not JSON: ${(error as Error).message}`, run.sent, first.body.slice(0, 200)));
    return out(judge('GW-PASS-002', id, findings), judge('GW-ENH-001', id, enhFindings));
  }
  const diff = jsonDifference(run.sent, parsed);
  if (diff) {
    const what = diff.actual === undefined ? 'is missing from' : diff.expected === undefined ? 'was added to' : 'has another value in';
    findings.push(finding('GW-PASS-002', 'upstream-body-differs', `upstream:body${diff.path}`, `${diff.path} ${what} the request the gateway forwarded`, diff.expected ?? null, diff.actual ?? null));
  }
  return out(judge('GW-PASS-002', id, findings), judge('GW-ENH-001', id, enhFindings));
}
