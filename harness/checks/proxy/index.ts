/**
 * Checks of the cookie-to-bearer proxy (PRX-*, harness/requirements/proxy.ts). Each reads what the
 * client saw (an Exchange) beside what the backend relay recorded of the same run
 * (harness/targets/proxy/backend.ts): the proxy's own behaviour is the difference between the two.
 * Pure functions over observations; a misbehaving proxy is a finding, never an exception.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import type { BackendRecord } from '../../targets/proxy/backend.ts';
import { commonPrefix, finding, headerValues, judge, noStreamReason, showBytes, untested, type Exchange } from '../gateway/types.ts';

const isRun = (r: BackendRecord) => r.method === 'POST' && (r.url.split('?')[0] ?? '') === '/run_sse';

/** Where a token shows in a URL: the token itself, or a query parameter named like one. */
export function tokenInUrl(url: string, token: string): boolean {
  return (token !== '' && url.includes(token)) || /[?&](access_token|token|jwt|auth|authorization)=/i.test(url);
}

/**
 * One scenario run through the proxy with a valid cookie and CSRF pair. PRX-PASS-001: the client's
 * status, content type and bytes are the backend's. PRX-AUTH-001: the backend got the cookie's
 * token as a bearer token. PRX-URL-001: no backend URL carries a token.
 */
export function checkProxiedRun(scenario: string, client: Exchange, records: BackendRecord[], token: string): CheckOutcome[] {
  const noStream = noStreamReason(client);
  if (noStream !== undefined) return ['PRX-PASS-001', 'PRX-AUTH-001', 'PRX-URL-001'].map((r) => untested(r, scenario, `proxy request: ${noStream.replace('gateway', 'proxy')}`));
  const runs = records.filter(isRun);
  const pass: Finding[] = [];
  const auth: Finding[] = [];
  const url: Finding[] = [];
  const backend = runs[0];
  if (records.length === 0) {
    pass.push(finding('PRX-PASS-001', 'no-backend-request', 'backend', 'the proxy answered without sending the run to the backend\'s POST /run_sse', 'POST /run_sse', client.status));
    auth.push(finding('PRX-AUTH-001', 'no-backend-request', 'backend', 'a request with a valid access_token cookie never reached the backend', 'POST /run_sse with Authorization: Bearer <cookie token>', 'no request'));
  } else if (backend === undefined) {
    pass.push(finding('PRX-PASS-001', 'wrong-backend-route', 'backend:url', 'the proxy did not call the backend\'s POST /run_sse', 'POST /run_sse', records.map((r) => `${r.method} ${r.url}`)));
  } else {
    if (backend.headers.authorization !== `Bearer ${token}`) {
      auth.push(finding('PRX-AUTH-001', 'no-bearer-token', 'backend:header:authorization', 'the backend request does not carry the cookie\'s token as `Authorization: Bearer <token>`', 'Bearer <the access_token cookie>', backend.headers.authorization === undefined ? 'absent' : `${backend.headers.authorization.slice(0, 20)}…`));
    }
    pass.push(...answerChanges(client, backend));
  }
  for (const r of records) if (tokenInUrl(r.url, token)) url.push(finding('PRX-URL-001', 'token-in-backend-url', 'backend:url', 'the proxy put the token in the URL of a backend request', 'no token in any URL', r.url.replace(token, '<token>')));
  return [judge('PRX-PASS-001', scenario, pass), judge('PRX-AUTH-001', scenario, auth), judge('PRX-URL-001', scenario, url)];
}

/** PRX-PASS-001: where the client's answer differs from the backend's (status, Content-Type, body bytes); `what` names the answer in messages. */
export function answerChanges(client: Exchange, backend: BackendRecord, what = '', prefix = ''): Finding[] {
  const out: Finding[] = [];
  const of = what === '' ? '' : ` (${what})`;
  if (client.status !== backend.status) out.push(finding('PRX-PASS-001', 'status-changed', `${prefix}status`, `the backend answered HTTP ${backend.status}, the client got HTTP ${client.status}${of}`, backend.status, client.status));
  const type = headerValues(client, 'content-type')[0];
  const changed = contentTypeChanged(backend.responseHeaders['content-type'], type);
  if (changed !== undefined) out.push(finding('PRX-PASS-001', 'content-type-changed', `${prefix}header:content-type`, `the client's Content-Type is not the backend's${of}: ${changed}`, backend.responseHeaders['content-type'] ?? 'absent', type ?? 'absent'));
  const expected = backend.responseBody;
  const same = commonPrefix(client.body, expected);
  if (same !== expected.length || client.body.length !== expected.length) {
    out.push(finding('PRX-PASS-001', 'bytes-changed', `${prefix}byte ${same}`, `the client's body differs from the backend's at byte ${same} of ${expected.length}${of}`, showBytes(expected.subarray(same)), showBytes(client.body.subarray(same))));
  }
  return out;
}

export type ErrorAnswerCase = { label: string; client: Exchange; records: BackendRecord[] };

/**
 * PRX-PASS-001 on the backend's error answers (docs/proxy-contract.md: "error answers (401, 403,
 * 404, 501, 502) included"): each must reach the client with its status, Content-Type and body
 * unchanged. A case the proxy answered itself (no backend request: a 401 or 403 of its own, which
 * PRX-AUTH-001 and PRX-CSRF-001 allow) has no backend answer to compare and is left out.
 */
export function checkErrorAnswers(probe: string, cases: ErrorAnswerCase[]): CheckOutcome {
  const findings: Finding[] = [];
  let compared = 0;
  for (const [i, c] of cases.entries()) {
    const noStream = noStreamReason(c.client);
    if (noStream !== undefined) {
      findings.push(finding('PRX-PASS-001', 'no-answer', `case[${i}]/status`, `${c.label}: ${noStream.replace('gateway', 'proxy')}`, 'the backend\'s answer', null));
      continue;
    }
    const backend = c.records.filter(isRun)[0];
    if (!backend || backend.status === undefined) continue;
    compared++;
    findings.push(...answerChanges(c.client, backend, `${c.label}: the backend answered HTTP ${backend.status}`, `case[${i}]/`));
  }
  if (compared === 0 && findings.length === 0) return untested('PRX-PASS-001', probe, 'the proxy answered every error case itself, so no backend error answer reached it to pass on');
  return judge('PRX-PASS-001', probe, findings);
}

/** One request sent with the proxy's own Host and again with `Host: localhost`, otherwise alike. */
export type HostAttempt = { client: Exchange; records: BackendRecord[]; reachedAdk: boolean | { error: string } };
export type HostClaimCase = { label: string; lacks: 'cookie' | 'csrf'; plain: HostAttempt; claimed: HostAttempt };

/**
 * PRX-HOST-001: a request whose Host header says `localhost` (the harness writes it; any remote
 * client can) gets the checks the same request gets without it. What the proxy does to a request
 * without the cookie or the CSRF header is PRX-AUTH-001's and PRX-CSRF-001's to judge; here only
 * what the Host header changes counts: a status other than the plain request's, a credential on
 * the backend request, or a run at the ADK service, that only the localhost request got.
 */
export function checkHostClaim(probe: string, cases: HostClaimCase[]): CheckOutcome {
  const req = 'PRX-HOST-001';
  const findings: Finding[] = [];
  for (const [i, c] of cases.entries()) {
    for (const [which, a] of [['without the Host claim', c.plain], ['with Host: localhost', c.claimed]] as const) {
      const noStream = noStreamReason(a.client);
      if (noStream !== undefined) return untested(req, probe, `${c.label} ${which}: ${noStream.replace('gateway', 'proxy')}`);
      if (typeof a.reachedAdk === 'object') return untested(req, probe, `the mock's journal could not be read: ${a.reachedAdk.error}`);
    }
    const bearer = (a: HostAttempt) => a.records.find((r) => r.headers.authorization !== undefined);
    if (c.claimed.client.status !== c.plain.client.status) findings.push(finding(req, 'host-claim-trusted', `case[${i}]/status`, `${c.label} got HTTP ${c.claimed.client.status} with Host: localhost and HTTP ${c.plain.client.status} without: the proxy trusts a Host header that any client can write`, c.plain.client.status, c.claimed.client.status));
    const credential = bearer(c.claimed);
    if (c.lacks === 'cookie' && credential && !bearer(c.plain)) findings.push(finding(req, 'credential-for-host', `case[${i}]/backend:header:authorization`, `${c.label} reached the backend with an Authorization header only when its Host header said localhost`, 'no Authorization header', `${credential.headers.authorization?.slice(0, 20)}…`));
    if (c.claimed.reachedAdk === true && c.plain.reachedAdk !== true) findings.push(finding(req, 'host-claim-forwarded', `case[${i}]/upstream`, `${c.label} reached the ADK service only when its Host header said localhost`, 'no run', 'a POST /run_sse'));
  }
  return judge(req, probe, findings);
}

/**
 * Whether the client's Content-Type says something else than the backend's, compared the way
 * HTTP defines media types (and GW-HDR-001 compares a gateway's): the type case-insensitively,
 * parameters by name. A `charset=utf-8` the proxy's framework adds (Next.js and Starlette do, to
 * every text/* type) says what the bytes already are, so it is allowed; any other charset, or a
 * parameter or type of the backend's changed or dropped, is a change.
 */
export function contentTypeChanged(backend: string | undefined, client: string | undefined): string | undefined {
  if (backend === undefined) return client === undefined ? undefined : `the backend sent none, the proxy added '${client}'`;
  if (client === undefined) return `the proxy dropped '${backend}'`;
  const parse = (value: string) => {
    const [essence = '', ...rest] = value.split(';').map((p) => p.trim());
    const params = new Map(rest.filter((p) => p !== '').map((p) => { const at = p.indexOf('='); return [(at < 0 ? p : p.slice(0, at)).trim().toLowerCase(), (at < 0 ? '' : p.slice(at + 1)).trim().replace(/^"|"$/g, '')] as const; }));
    return { essence: essence.toLowerCase(), params };
  };
  const b = parse(backend);
  const c = parse(client);
  if (b.essence !== c.essence) return `the media type '${c.essence}' is not the backend's '${b.essence}'`;
  for (const [name, value] of b.params) {
    const mine = c.params.get(name);
    if (mine === undefined) return `the backend's ${name}=${value} was dropped`;
    if ((name === 'charset' ? mine.toLowerCase() !== value.toLowerCase() : mine !== value)) return `${name}=${mine} instead of the backend's ${name}=${value}`;
  }
  for (const [name, value] of c.params) {
    if (b.params.has(name)) continue;
    if (name === 'charset' && value.toLowerCase() === 'utf-8') continue;
    return `the proxy added ${name}=${value}${name === 'charset' ? ' (an event stream is always UTF-8)' : ''}`;
  }
  return undefined;
}

/** A request the proxy must refuse without authenticating it: no cookie at all. */
export function checkNoCookie(probe: string, client: Exchange, records: BackendRecord[]): CheckOutcome {
  const noStream = noStreamReason(client);
  if (noStream !== undefined) return untested('PRX-AUTH-001', probe, `request without a cookie: ${noStream.replace('gateway', 'proxy')}`);
  const findings: Finding[] = [];
  if (client.status !== 401) findings.push(finding('PRX-AUTH-001', 'no-cookie-not-refused', 'status', `a request with no access_token cookie got HTTP ${client.status}`, 401, client.status));
  const bearer = records.filter((r) => r.headers.authorization !== undefined);
  if (bearer.length > 0) findings.push(finding('PRX-AUTH-001', 'credential-without-cookie', 'backend:header:authorization', 'a request with no cookie reached the backend with an Authorization header: the proxy supplied a credential of its own', 'no Authorization header', `${bearer[0]?.headers.authorization?.slice(0, 20)}…`));
  return judge('PRX-AUTH-001', probe, findings);
}

/** Requests whose only token is in their own URL (`?access_token=`, `?token=`): never used. */
export function checkUrlTokens(probe: string, cases: Array<{ label: string; client: Exchange; records: BackendRecord[] }>, token: string): CheckOutcome {
  const findings: Finding[] = [];
  let observed = 0;
  for (const c of cases) {
    if (noStreamReason(c.client) !== undefined) continue;
    observed++;
    const used = c.records.some((r) => (r.headers.authorization ?? '').includes(token) || r.url.includes(token));
    if (used || (c.client.status !== undefined && c.client.status >= 200 && c.client.status <= 299)) {
      findings.push(finding('PRX-URL-001', 'token-taken-from-url', 'url:query', `${c.label} was ${used ? 'sent on to the backend' : 'accepted'} (HTTP ${c.client.status}): the proxy takes a JWT from the request URL, which browsers log, cache and send in Referer`, 'HTTP 401, nothing sent on', c.client.status));
    }
  }
  if (observed === 0) return untested('PRX-URL-001', probe, 'no request with a token in its URL got an answer from the proxy');
  return judge('PRX-URL-001', probe, findings);
}

/**
 * PRX-PASS-002: the backend sent `before` bytes, then paused `pauseMs`, then the rest. The client
 * must have held those bytes at least half the pause before its last bytes came: a proxy that
 * buffers (or reframes to the end) delivers everything at once.
 */
export function checkUnbuffered(probe: string, client: Exchange, before: number, pauseMs: number): CheckOutcome {
  const noStream = noStreamReason(client);
  if (noStream !== undefined) return untested('PRX-PASS-002', probe, `paused run: ${noStream.replace('gateway', 'proxy')}`);
  if (client.status !== 200) return untested('PRX-PASS-002', probe, `the paused run was answered HTTP ${client.status}, not a stream (PRX-AUTH-001 and PRX-PASS-001 say why)`);
  const early = client.arrivals.find((a) => a.end >= before);
  const last = client.arrivals.at(-1);
  if (!early || !last) return untested('PRX-PASS-002', probe, `the client got ${client.body.length} bytes, fewer than the ${before} the backend sent before its pause`);
  const heldMs = last.t - early.t;
  return judge('PRX-PASS-002', probe, heldMs >= pauseMs / 2 ? [] : [finding('PRX-PASS-002', 'held-back', `byte ${before}`, `the ${before} bytes the backend sent before a ${pauseMs} ms pause reached the client only ${Math.round(heldMs)} ms before the rest: the proxy held them back`, `at least ${pauseMs / 2} ms earlier`, `${Math.round(heldMs)} ms earlier`)]);
}

/**
 * PRX-ABORT-001: the client left after its first bytes; the backend request must be closed within
 * `boundMs`. Only a stream can be left mid-stream: a refusal (a 403 from the backend's CSRF check,
 * the proxy's own 401) is a whole answer that ends by itself, and PRX-AUTH-001, PRX-CSRF-001 and
 * PRX-PASS-001 judge it; here it leaves the requirement untested, never failed.
 */
export function checkAbort(probe: string, left: { at: number } | { error: string }, record: BackendRecord | undefined, boundMs: number, client?: Exchange): CheckOutcome {
  if ('error' in left) return untested('PRX-ABORT-001', probe, `the client could not leave mid-stream: ${left.error}`);
  const status = client?.status ?? record?.status;
  if (status !== undefined && status !== 200) {
    const whose = record?.status !== undefined && record.status !== 200 ? `the backend answered HTTP ${record.status}` : `the proxy answered HTTP ${status}${record ? '' : ' without calling the backend'}`;
    return untested('PRX-ABORT-001', probe, `the held-open run was refused (${whose}), so there was no stream to leave mid-way (PRX-AUTH-001, PRX-CSRF-001 and PRX-PASS-001 judge the refusal)`);
  }
  if (!record) return untested('PRX-ABORT-001', probe, 'the held-open run never reached the backend');
  if (record.status !== undefined && record.status !== 200) return untested('PRX-ABORT-001', probe, `the held-open run was refused (the backend answered HTTP ${record.status}), so there was no stream to leave mid-way`);
  if (record.abandonedAt !== undefined && record.abandonedAt - left.at <= boundMs) return judge('PRX-ABORT-001', probe, []);
  const actual = record.abandonedAt !== undefined ? `closed ${Math.round(record.abandonedAt - left.at)} ms after the client left` : record.endedAt !== undefined ? 'read to its end' : 'still open';
  return judge('PRX-ABORT-001', probe, [finding('PRX-ABORT-001', 'backend-not-closed', 'backend', `the client left mid-stream; the proxy's backend request was ${actual}`, `closed within ${boundMs} ms`, actual)]);
}

export type CsrfCase = { label: string; client: Exchange; reachedAdk: boolean | { error: string }; expectStream: boolean };

/** PRX-CSRF-001: the valid pair streams and its run reaches the ADK service; every bad one gets 403 and none does. */
export function checkCsrf(probe: string, cases: CsrfCase[]): CheckOutcome {
  const findings: Finding[] = [];
  for (const c of cases) {
    const noStream = noStreamReason(c.client);
    if (noStream !== undefined) return untested('PRX-CSRF-001', probe, `${c.label}: ${noStream.replace('gateway', 'proxy')}`);
    if (typeof c.reachedAdk === 'object') return untested('PRX-CSRF-001', probe, `the mock's journal could not be read: ${c.reachedAdk.error}`);
    if (c.expectStream) {
      if (c.client.status !== 200 || !c.reachedAdk) findings.push(finding('PRX-CSRF-001', 'valid-token-refused', 'header:x-csrf-token', `${c.label} got HTTP ${c.client.status}${c.reachedAdk ? '' : ' and its run never reached the ADK service'}`, 200, c.client.status));
    } else {
      if (c.client.status !== 403) findings.push(finding('PRX-CSRF-001', 'forged-request-not-refused', 'header:x-csrf-token', `${c.label} got HTTP ${c.client.status}`, 403, c.client.status));
      if (c.reachedAdk) findings.push(finding('PRX-CSRF-001', 'forged-request-forwarded', 'upstream', `${c.label} reached the ADK service`, 'no run', 'a POST /run_sse'));
    }
  }
  return judge('PRX-CSRF-001', probe, findings);
}
