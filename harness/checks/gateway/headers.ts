/**
 * GW-HDR-001..004: seed 004 § HTTP Headers, "Response Headers":
 *   Content-Type: text/event-stream / Cache-Control: no-cache / Connection: keep-alive
 * and § Streaming Pattern: "**Buffering:** Disabled (`X-Accel-Buffering: no`)".
 *
 * Each header must be sent exactly once. Values compare the way HTTP defines them: the media type
 * case-insensitively and without parameters (Starlette, the seed's own server, appends
 * `; charset=utf-8` to every text/* type; SSE is always UTF-8, so only that charset is allowed);
 * Cache-Control and Connection as comma-separated token lists that must contain the seed's token;
 * X-Accel-Buffering exactly `no`.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, headerValues, judge, noStreamReason, untested, type Exchange } from './types.ts';

type HeaderRule = { requirement: string; name: string; expected: string; accepts: (value: string) => string | undefined };

const tokens = (value: string): string[] => value.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t !== '');

export const headerRules: readonly HeaderRule[] = [
  {
    requirement: 'GW-HDR-001', name: 'Content-Type', expected: 'text/event-stream',
    accepts(value) {
      const [essence = '', ...params] = value.split(';').map((p) => p.trim());
      if (essence.toLowerCase() !== 'text/event-stream') return `the media type is '${essence}', not text/event-stream`;
      for (const p of params) {
        const [key = '', v = ''] = p.split('=').map((s) => s.trim().toLowerCase());
        if (key === 'charset' && v.replace(/"/g, '') !== 'utf-8') return `charset=${v}: an event stream is always UTF-8`;
      }
      return undefined;
    },
  },
  {
    requirement: 'GW-HDR-002', name: 'Cache-Control', expected: 'no-cache',
    accepts: (value) => (tokens(value).includes('no-cache') ? undefined : `'${value}' has no no-cache directive, so a cache may store the stream`),
  },
  {
    requirement: 'GW-HDR-003', name: 'Connection', expected: 'keep-alive',
    accepts: (value) => (tokens(value).includes('keep-alive') ? undefined : `'${value}' does not keep the connection alive`),
  },
  {
    requirement: 'GW-HDR-004', name: 'X-Accel-Buffering', expected: 'no',
    accepts: (value) => (value.trim().toLowerCase() === 'no' ? undefined : `'${value}' lets a proxy (nginx) buffer the stream`),
  },
];

export const headerRequirements = headerRules.map((r) => r.requirement);

/** The four header requirements for one stream response. Judged only when the gateway answered 200. */
export function checkStreamHeaders(scenario: string, exchange: Exchange): CheckOutcome[] {
  const noStream = noStreamReason(exchange);
  if (noStream !== undefined) return headerRules.map((r) => untested(r.requirement, scenario, noStream));
  if (exchange.status !== 200) return headerRules.map((r) => untested(r.requirement, scenario, `the gateway answered HTTP ${exchange.status}, not a 200 stream`));
  return headerRules.map((rule) => {
    const values = headerValues(exchange, rule.name);
    const path = `header:${rule.name.toLowerCase()}`;
    const findings: Finding[] = [];
    if (values.length === 0) {
      findings.push(finding(rule.requirement, 'header-missing', path, `the stream response has no ${rule.name} header`, rule.expected, null));
    } else if (values.length > 1) {
      findings.push(finding(rule.requirement, 'header-repeated', path, `${rule.name} is sent ${values.length} times; a client or proxy may read either`, rule.expected, values));
    } else {
      const problem = rule.accepts(values[0] ?? '');
      if (problem !== undefined) findings.push(finding(rule.requirement, 'header-wrong', path, `${rule.name}: ${problem}`, rule.expected, values[0]));
    }
    return judge(rule.requirement, scenario, findings);
  });
}
