/**
 * What the gateway's upstream request carries besides the body (the mock journals its headers).
 *
 * GW-FWD-003: seed 004 § Streaming Pattern, `async with httpx.AsyncClient(timeout=timeout_config)
 * as client:` then `client.stream("POST", ..., json=...)`: a fresh client that sends the model's
 * JSON and nothing of the client's request. The client's bearer token, its cookies (session, CSRF,
 * auth) and its CSRF token must not reach the ADK server: it has no auth, logs requests, and a
 * token must not leak further than the gateway. Judged by value, so a gateway that sends its own
 * service credentials upstream (an ID token for a private Cloud Run service) is fine.
 *
 * GW-FWD-002: seed 004 § Base Endpoint, "**Upstream Target:** `http://127.0.0.1:8080/run_sse`
 * (ADK service)": the request is addressed to the upstream, so its Host header names the upstream
 * (httpx sets it from the URL). A gateway that copies the client's Host sends the gateway's own
 * name, which a virtual-hosted upstream (Cloud Run, a load balancer) answers with 404 or routes
 * elsewhere.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { upstreamRuns } from './forwarding.ts';
import { finding, judge, untested, type UpstreamRequest } from './types.ts';

export type UpstreamHeadersCase = {
  scenario: string;
  journal: UpstreamRequest[] | { error: string };
  /** The headers the client sent the gateway (lower-case names). */
  clientHeaders: Record<string, string>;
  /** `host:port` of ADK_UPSTREAM_URL. */
  upstreamHost: string;
};

/** The credential values of a client request: bearer token, each cookie value, the CSRF token. */
export function clientSecrets(headers: Record<string, string>): Array<{ what: string; value: string }> {
  const out: Array<{ what: string; value: string }> = [];
  const bearer = /^Bearer\s+(\S+)/i.exec(headers.authorization ?? '')?.[1];
  if (bearer) out.push({ what: 'the client\'s bearer token', value: bearer });
  for (const pair of (headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (at > 0 && value.length >= 8) out.push({ what: `the client's ${name} cookie`, value });
  }
  const csrf = headers['x-csrf-token'];
  if (csrf && csrf.length >= 8) out.push({ what: 'the client\'s X-CSRF-Token', value: csrf });
  return out;
}

/** `value` with every client secret in it replaced by `[redacted: N characters]`. */
export function redactSecrets(value: string, secrets: ReadonlyArray<{ value: string }>): string {
  let out = value;
  for (const s of secrets) out = out.split(s.value).join(`[redacted: ${s.value.length} characters]`);
  return out;
}

export function checkUpstreamHeaders(c: UpstreamHeadersCase): CheckOutcome[] {
  const reqs = ['GW-FWD-003', 'GW-FWD-002'];
  if (!Array.isArray(c.journal)) return reqs.map((r) => untested(r, c.scenario, `the mock's request journal could not be read: ${(c.journal as { error: string }).error}`));
  const runs = upstreamRuns(c.journal).filter((r) => r.headers !== undefined);
  if (runs.length === 0) return reqs.map((r) => untested(r, c.scenario, 'the gateway made no upstream run request whose headers the mock journalled'));
  const secrets = clientSecrets(c.clientHeaders);
  const leaks: Finding[] = [];
  const hosts: Finding[] = [];
  for (const run of runs) {
    const headers = run.headers ?? {};
    for (const [name, values] of Object.entries(headers)) {
      for (const value of values) {
        for (const s of secrets) {
          if (!value.includes(s.value)) continue;
          // Reports go to auditors and CI logs, and on live traffic (tap --pair) the value is a real credential: never copy it.
          const shown = redactSecrets(value, secrets);
          leaks.push(finding('GW-FWD-003', 'credential-forwarded', `upstream:header:${name}`, `the gateway sent ${s.what} to the upstream in its ${name} header; the ADK server must never see the client's credentials`, 'no client credential upstream', `${name}: ${shown.length > 80 ? `${shown.slice(0, 80)}...` : shown}`));
        }
      }
    }
    const host = headers.host ?? [];
    if (host.length !== 1 || host[0]?.toLowerCase() !== c.upstreamHost.toLowerCase()) {
      hosts.push(finding('GW-FWD-002', 'wrong-upstream-host', 'upstream:header:host', `the upstream request's Host header is ${host.length === 0 ? 'missing' : `'${host.join(', ')}'`}, not the upstream's own ${c.upstreamHost}${host.some((h) => h.toLowerCase() === (c.clientHeaders.host ?? '').toLowerCase()) ? ' (the gateway copied the client\'s Host)' : ''}`, c.upstreamHost, host.join(', ') || null));
    }
  }
  return [judge('GW-FWD-003', c.scenario, leaks.slice(0, 5)), judge('GW-FWD-002', c.scenario, hosts.slice(0, 1))];
}
