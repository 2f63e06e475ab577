/**
 * GW-REQ-001: seed 004 § Field Requirements (appName, userId, sessionId, newMessage with parts and
 * role are required): a body missing one, or with a wrong type, is refused with a 4xx that names
 * the field, so a client developer can fix the request.
 * GW-REQ-002: such a refused request opens no upstream stream (the mock's journal shows none).
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, judge, noStreamReason, untested, type Exchange } from './types.ts';

export type InvalidBody = {
  /** What is wrong, e.g. "userId is missing". */
  label: string;
  /** Names that count as naming the field (camelCase, snake_case). */
  names: string[];
  exchange: Exchange;
  /** Run requests the mock received for this attempt (its unique marker), or why unknown. */
  upstreamRequests: number | { error: string };
};

export type ValidationCase = {
  probe: string;
  /** A valid body with its own marker: must stream (200) and reach the mock exactly once. */
  control: { exchange: Exchange; upstreamRequests: number | { error: string } };
  attempts: InvalidBody[];
};

export function checkRequestValidation(c: ValidationCase): CheckOutcome[] {
  const reqs = ['GW-REQ-001', 'GW-REQ-002'];
  const { control } = c;
  const controlProblem = noStreamReason(control.exchange)
    ?? (control.exchange.status !== 200 ? `a valid body was refused (HTTP ${control.exchange.status}), so refusals prove nothing` : undefined)
    ?? (typeof control.upstreamRequests !== 'number' ? `the mock's journal could not be read: ${control.upstreamRequests.error}` : undefined)
    ?? (control.upstreamRequests !== 1 ? `a valid body reached the mock ${control.upstreamRequests} times, not once, so the journal cannot tell whether a refused one did` : undefined);
  if (controlProblem !== undefined) return reqs.map((r) => untested(r, c.probe, `control request: ${controlProblem}`));
  const named: Finding[] = [];
  const upstream: Finding[] = [];
  for (const a of c.attempts) {
    const problem = noStreamReason(a.exchange);
    if (problem !== undefined) {
      named.push(finding('GW-REQ-001', 'no-answer', 'status', `a body where ${a.label}: ${problem}`, '4xx', null));
      continue;
    }
    const status = a.exchange.status ?? 0;
    const text = Buffer.from(a.exchange.body.subarray(0, 64 * 1024)).toString('utf8');
    if (status < 400 || status > 499) {
      named.push(finding('GW-REQ-001', status >= 200 && status <= 299 ? 'accepted-invalid-body' : 'wrong-status', 'status', `a body where ${a.label} got HTTP ${status}, not a 4xx refusal`, '4xx', status));
    } else if (!a.names.some((n) => text.includes(n))) {
      named.push(finding('GW-REQ-001', 'field-not-named', 'body', `the ${status} refusal of a body where ${a.label} does not name the field (${a.names.join(' or ')})`, a.names[0], text.slice(0, 200)));
    }
    if (typeof a.upstreamRequests !== 'number') {
      upstream.push(finding('GW-REQ-002', 'journal-unreadable', 'upstream', `the mock's journal could not be read: ${a.upstreamRequests.error}`, 0, null));
    } else if (a.upstreamRequests > 0) {
      upstream.push(finding('GW-REQ-002', 'upstream-request-made', 'upstream', `a body where ${a.label} reached the upstream (${a.upstreamRequests} run request${a.upstreamRequests > 1 ? 's' : ''}) although the gateway ${status >= 400 && status <= 499 ? 'refused it' : 'had to refuse it'}`, 0, a.upstreamRequests));
    }
  }
  return [judge('GW-REQ-001', c.probe, named), judge('GW-REQ-002', c.probe, upstream)];
}
