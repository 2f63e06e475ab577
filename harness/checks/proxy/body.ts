/**
 * PRX-BODY-001: seed 004 § Frontend Implementation, "**Required Components:**" of the SSE proxy:
 * "Accept POST with RunAgentRequest body" and "Forward to backend with Authorization header". The
 * body the backend gets is the one the browser sent, as a JSON value: every field (`stateDelta`,
 * `invocationId`, parts other than text, a text part's `thought` and `thoughtSignature`) and every
 * value, numbers exactly (`JSON.stringify(await request.json())` rounds an integer above 2^53).
 * Key order, whitespace and a number's spelling may change; nothing else.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { BackendRecord } from '../../targets/proxy/backend.ts';
import { parseExactJson, shownExact } from '../exact-json.ts';
import { jsonDifference } from '../gateway/forwarding.ts';
import { finding, judge, noStreamReason, untested, type Exchange } from '../gateway/types.ts';

export type BodyCase = { label: string; sent: string; client: Exchange; records: BackendRecord[] };

const isRun = (r: BackendRecord) => r.method === 'POST' && (r.url.split('?')[0] ?? '') === '/run_sse';

export function checkForwardedBody(probe: string, cases: BodyCase[]): CheckOutcome {
  const req = 'PRX-BODY-001';
  const findings: Finding[] = [];
  for (const [i, c] of cases.entries()) {
    const noStream = noStreamReason(c.client);
    if (noStream !== undefined) return untested(req, probe, `${c.label}: ${noStream.replace('gateway', 'proxy')}`);
    const backend = c.records.find(isRun);
    if (backend === undefined) {
      findings.push(finding(req, 'body-not-forwarded', `case[${i}]/backend`, `${c.label} (a valid RunAgentRequest, with the cookie and the CSRF pair): no POST /run_sse naming this run's session reached the backend; the client got HTTP ${c.client.status}`, 'POST /run_sse', c.client.status));
      continue;
    }
    let got: unknown;
    try {
      got = parseExactJson(backend.body);
    } catch (error) {
      findings.push(finding(req, 'backend-body-not-json', `case[${i}]/backend:body`, `${c.label}: the body the backend got is not JSON (${(error as Error).message})`, c.sent.slice(0, 200), backend.body.slice(0, 200)));
      continue;
    }
    const diff = jsonDifference(parseExactJson(c.sent), got);
    if (diff) {
      const what = diff.actual === undefined ? 'is missing from' : diff.expected === undefined ? 'was added to' : 'has another value in';
      findings.push(finding(req, 'backend-body-differs', `case[${i}]/backend:body${diff.path}`, `${c.label}: ${diff.path} ${what} the body the backend got`, shownExact(diff.expected) ?? null, shownExact(diff.actual) ?? null));
    }
  }
  return judge(req, probe, findings);
}
