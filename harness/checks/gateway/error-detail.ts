/**
 * GW-ERR-006: the `detail` of the status frame a gateway writes for an upstream 4xx/5xx carries the
 * upstream's own error text, and no frame names the internal upstream address.
 *
 * Seed 004 § HTTP Status Errors shows `"detail": "Internal Server Error"`, which is both the reason
 * phrase of a 500 and the body Starlette sends for one, so the seed does not say which; what a
 * client can act on ("Session not found: s1") is the upstream's text. The defect this catches is
 * the FastAPI habit `detail=str(exc)` on an httpx HTTPStatusError: "Client error '404 Not Found'
 * for url 'http://127.0.0.1:8080/run_sse'", which drops the upstream's text and tells every browser
 * where the ADK service listens inside the deployment.
 */
import { STATUS_CODES } from 'node:http';
import type { CheckOutcome, Finding } from '../../model.ts';
import { readSse } from '../../../core/sse.ts';
import { finding, judge, untested, type Exchange } from './types.ts';

export type ErrorDetailCase = {
  scenario: string;
  exchange: Exchange;
  upstreamStatus: number;
  /** The body the upstream answered with. */
  upstreamBody: Uint8Array;
  /** `host:port` of the upstream the gateway was configured with; undefined when not known. */
  upstreamHost?: string | undefined;
};

const req = 'GW-ERR-006';

/** Bodies longer than this are not an error message a gateway is expected to carry whole. */
const textLimit = 1000;

/**
 * The text a faithful `detail` carries, or undefined when the body holds no error message (an
 * event stream answered with an error status, a long page): the JSON body's string `detail` or
 * `error` (FastAPI, adk-js), a short plain-text body (adk-go's net/http), or the reason phrase of
 * an empty body.
 */
export function upstreamErrorText(status: number, body: Uint8Array): string | undefined {
  const text = Buffer.from(body).toString('utf8').trim();
  if (text === '') return STATUS_CODES[status];
  try {
    const json = JSON.parse(text) as unknown;
    if (json && typeof json === 'object' && !Array.isArray(json)) {
      const record = json as Record<string, unknown>;
      if (typeof record.detail === 'string' && record.detail !== '') return record.detail;
      if (typeof record.error === 'string' && record.error !== '') return record.error;
    }
    return undefined;
  } catch { /* not JSON: plain text */ }
  if (text.length > textLimit || /^(data|event|id|retry):/m.test(text)) return undefined;
  return text;
}

function statusFrame(exchange: Exchange): { json: Record<string, unknown>; data: string; at: string } | undefined {
  const frames = readSse(exchange.body).frames;
  for (let i = frames.length - 1; i >= 0; i--) {
    const data = frames[i]?.data ?? '';
    try {
      const json = JSON.parse(data) as unknown;
      if (json && typeof json === 'object' && !Array.isArray(json) && 'status_code' in json) return { json: json as Record<string, unknown>, data, at: `frame[${i}]` };
    } catch { /* an upstream event, not the gateway's frame */ }
  }
  return undefined;
}

export function checkErrorDetail(c: ErrorDetailCase): CheckOutcome[] {
  const frame = c.exchange.status === 200 ? statusFrame(c.exchange) : undefined;
  if (!frame) return [untested(req, c.scenario, `the gateway wrote no status frame for the upstream's HTTP ${c.upstreamStatus} (GW-ERR-001 says why), so there was no detail to read`)];
  const expected = upstreamErrorText(c.upstreamStatus, c.upstreamBody);
  if (expected === undefined && c.upstreamHost === undefined) return [untested(req, c.scenario, 'the upstream\'s error body held no message to carry and the upstream address was not known')];
  const findings: Finding[] = [];
  const detail = frame.json.detail;
  if (expected !== undefined && !(typeof detail === 'string' && detail.includes(expected))) {
    findings.push(finding(req, 'detail-drops-upstream-text', `${frame.at}/detail`, `the upstream answered HTTP ${c.upstreamStatus} with the message ${JSON.stringify(expected)}, but the frame's detail does not carry it, so the client cannot tell what failed`, expected, detail ?? null));
  }
  if (c.upstreamHost !== undefined && frame.data.includes(c.upstreamHost)) {
    findings.push(finding(req, 'frame-leaks-upstream-address', `${frame.at}`, `the frame names the internal upstream address ${c.upstreamHost} (as httpx's str(HTTPStatusError) does): every client learns where the ADK service listens`, 'no upstream address', frame.data.slice(0, 300)));
  }
  return [judge(req, c.scenario, findings)];
}
