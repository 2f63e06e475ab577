/**
 * Probes of what a gateway lets in: the feature flag (GW-FLAG-001), bearer JWTs (GW-AUTH-*),
 * CSRF (GW-CSRF-002, and its localhost skip: GW-HOST-001) and request validation (GW-REQ-*). Each sends well-formed requests with one
 * thing wrong, next to a control request done right.
 */
import { randomBytes } from 'node:crypto';
import type { Probe, RunEnv, ScenarioCheck } from '../types.ts';
import type { Exchange } from '../../checks/gateway/types.ts';
import { checkAuth } from '../../checks/gateway/auth.ts';
import { checkCsrf, type CsrfAttempt } from '../../checks/gateway/csrf.ts';
import { checkHostClaim } from '../../checks/gateway/host-claim.ts';
import { checkFlagOff } from '../../checks/gateway/flag.ts';
import type { RefusalAttempt } from '../../checks/gateway/refusals.ts';
import { checkRequestValidation, type InvalidBody } from '../../checks/gateway/request-validation.ts';
import { csrfCookieName } from './contract.ts';
import { exchange, pause, type MockClient } from './http.ts';
import { processOf, type GatewayInstance } from './instances.ts';
import { headersFor, prepareRun, sendRun, timelineOf, withInstance, type GatewayKit } from './kit.ts';
import { upstreamRuns } from '../../checks/gateway/forwarding.ts';

type KitRef = () => GatewayKit;

export function flagProbe(kitRef: KitRef): Probe {
  const id = 'probe:flag';
  const requirements = ['GW-FLAG-001'];
  return {
    id: 'flag',
    requirements,
    shared: true,
    run: (env) => withInstance(kitRef(), 'flag-off', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const run = await prepareRun(kit, mock, kit.scenario('plain_text'));
      const x = await sendRun(kit, instance, run, env);
      // The flag guards the endpoint: a body the gateway would refuse gets the 501 too, not a 422.
      const invalid = await attempt(instance, without(run.body, 'newMessage'), headersFor(kit, instance), env);
      const outcomes = checkFlagOff(id, [{ label: 'a valid request', exchange: x }, { label: 'a body without newMessage', exchange: invalid }]);
      return { outcomes, timeline: [...timelineOf('POST /run_sse to the gateway started without ENABLE_ADK_CANONICAL_STREAM=true', x), { t: invalid.durationMs, kind: 'note' as const, summary: `a body without newMessage: HTTP ${invalid.status ?? invalid.ending}` }] };
    }, env),
  };
}

/** One POST of a prepared body with other headers; short-bounded (a refusal is immediate). */
function attempt(instance: GatewayInstance, body: unknown, headers: Record<string, string>, env: RunEnv, path = '/run_sse'): Promise<Exchange> {
  return exchange(`${instance.url}${path}`, { body: typeof body === 'string' ? body : JSON.stringify(body), headers, deadlineMs: Math.min(5000, env.scenarioTimeoutMs - 1000), root: processOf(instance), signal: env.signal });
}

async function authCase(kit: GatewayKit, instance: GatewayInstance, mock: MockClient, env: RunEnv, control: string, attempts: Array<{ requirement: string; label: string; authorization: string | undefined; path?: string }>): Promise<{ control: Exchange; attempts: RefusalAttempt[] }> {
  const run = await prepareRun(kit, mock, kit.scenario('plain_text'));
  const headersWith = (authorization: string | undefined) => {
    const h = headersFor(kit, instance, { token: undefined });
    if (authorization !== undefined) h.authorization = authorization;
    return h;
  };
  const controlX = await sendRun(kit, instance, run, env, { headers: headersWith(`Bearer ${control}`) });
  const out: RefusalAttempt[] = [];
  for (const a of attempts) out.push({ requirement: a.requirement, label: a.label, path: a.path ? 'url:query' : 'header:authorization', exchange: await attempt(instance, run.body, headersWith(a.authorization), env, a.path) });
  return { control: controlX, attempts: out };
}

export function authProbe(kitRef: KitRef, withAlt: boolean): Probe {
  const id = 'probe:auth';
  const requirements = ['GW-AUTH-001', 'GW-AUTH-002', 'GW-AUTH-003', 'GW-AUTH-004'];
  return {
    id: 'auth',
    requirements,
    shared: true,
    run: async (env) => {
      const kit = kitRef();
      const c = kit.creds;
      const main = await withInstance(kit, 'main', requirements, id, async (instance, mock) => {
        const r = await authCase(kit, instance, mock, env, c.valid, [
          { requirement: 'GW-AUTH-001', label: 'no Authorization header', authorization: undefined },
          { requirement: 'GW-AUTH-001', label: 'an empty bearer token', authorization: 'Bearer ' },
          { requirement: 'GW-AUTH-001', label: 'Basic credentials', authorization: 'Basic YWRrOmNvbmZvcm1hbmNl' },
          { requirement: 'GW-AUTH-001', label: 'a bearer token that is not a JWT', authorization: 'Bearer not-a-jwt' },
          { requirement: 'GW-AUTH-001', label: 'a truncated JWT', authorization: `Bearer ${c.valid.slice(0, c.valid.lastIndexOf('.'))}` },
          // The EventSource habit: a token in the URL, which browsers log, cache and send in Referer.
          { requirement: 'GW-AUTH-001', label: 'a valid token only in the URL (?token=), no Authorization header', authorization: undefined, path: `/run_sse?token=${c.valid}` },
          { requirement: 'GW-AUTH-002', label: 'an expired token (exp one hour ago)', authorization: `Bearer ${c.expired}` },
          { requirement: 'GW-AUTH-002', label: 'a token not yet valid (nbf in one hour)', authorization: `Bearer ${c.notYetValid}` },
          { requirement: 'GW-AUTH-003', label: 'an unsigned token (alg: none)', authorization: `Bearer ${c.unsigned}` },
          { requirement: 'GW-AUTH-004', label: 'a token signed with another key', authorization: `Bearer ${c.wrongKey}` },
        ]);
        return { outcomes: checkAuth(id, r.control, r.attempts), timeline: timelineOf('control: POST /run_sse with a valid token', r.control) };
      }, env);
      if (!withAlt) return main;
      const confusion = ['GW-AUTH-003'];
      const alt = await withInstance(kit, 'alt', confusion, id, async (instance, mock) => {
        const r = await authCase(kit, instance, mock, env, c.validRs, [
          { requirement: 'GW-AUTH-003', label: 'an HS256 token MACed with the gateway\'s RSA public key (HS/RS confusion)', authorization: `Bearer ${c.confused}` },
          { requirement: 'GW-AUTH-003', label: 'an unsigned token (alg: none)', authorization: `Bearer ${c.unsigned}` },
        ]);
        return { outcomes: checkAuth(id, r.control, r.attempts), timeline: timelineOf('control: POST /run_sse with a valid RS256 token (JWT_PUBLIC_KEY instance)', r.control) };
      }, env);
      return { outcomes: [...main.outcomes, ...alt.outcomes], timeline: [...main.timeline, ...alt.timeline] };
    },
  };
}

/** A fresh CSRF-looking token no gateway issued. */
const strangerToken = () => randomBytes(32).toString('hex');

export function csrfProbe(kitRef: KitRef): Probe {
  const id = 'probe:csrf';
  const requirements = ['GW-CSRF-002'];
  return {
    id: 'csrf',
    requirements,
    shared: true,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const csrf = instance.csrf ?? { source: 'double-submit' as const, token: kit.creds.csrf, cookies: [`${csrfCookieName}=${kit.creds.csrf}`] };
      const run = await prepareRun(kit, mock, kit.scenario('plain_text'));
      const control = await sendRun(kit, instance, run, env);
      const base = { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${kit.creds.valid}` };
      const cookies = (list: string[]): Record<string, string> => (list.length > 0 ? { cookie: list.join('; ') } : {});
      const other = strangerToken();
      const cases: Array<[string, Record<string, string>]> = [
        ['no X-CSRF-Token header', { ...base, ...cookies(csrf.cookies) }],
        [csrf.source === 'double-submit' ? 'an X-CSRF-Token header that does not match the CSRF cookie' : 'an X-CSRF-Token the gateway never issued', { ...base, ...cookies(csrf.cookies), 'x-csrf-token': other }],
        ...(csrf.source === 'double-submit' ? [
          ['no X-CSRF-Token header and no CSRF cookie', base],
          ['an X-CSRF-Token header but no CSRF cookie', { ...base, 'x-csrf-token': csrf.token }],
        ] as Array<[string, Record<string, string>]> : [
          ['the issued token with its last characters changed', { ...base, ...cookies(csrf.cookies), 'x-csrf-token': `${csrf.token.slice(0, -4)}${csrf.token.endsWith('beef') ? 'f00d' : 'beef'}` }],
        ] as Array<[string, Record<string, string>]>),
      ];
      // Each attempt names a session of its own, so the journal tells which one went upstream.
      const sent: Array<{ label: string; marker: string; x: Exchange }> = [];
      for (const [i, [label, headers]] of cases.entries()) {
        const marker = `${kit.session('csrf')}-${i}`;
        sent.push({ label, marker, x: await attempt(instance, { ...run.body, sessionId: marker }, headers, env) });
      }
      // A gateway that forwards after refusing would show up a moment later.
      await pause(100, env.signal);
      const journal = await mock.journalAll();
      const count = (marker: string): number | { error: string } => (Array.isArray(journal) ? upstreamRuns(journal).filter((r) => r.body.includes(`"${marker}"`)).length : journal);
      const attempts: CsrfAttempt[] = sent.map(({ label, marker, x }) => ({ requirement: 'GW-CSRF-002', label, path: 'header:x-csrf-token', exchange: x, upstreamRequests: count(marker) }));
      const outcomes = checkCsrf({ probe: id, source: csrf.source, control, controlUpstream: count(String(run.body.sessionId)), attempts });
      const how = csrf.source === 'endpoint' ? 'the token issued at GET /csrf-token' : 'a matching double-submit pair';
      return { outcomes, timeline: [...timelineOf(`control: POST /run_sse with ${how}`, control), ...sent.map(({ label, x }) => ({ t: x.durationMs, kind: 'note' as const, summary: `${label}: HTTP ${x.status ?? x.ending}` }))] };
    }, env),
  };
}

/**
 * GW-HOST-001 on the `local-dev` instance (CSRF_SKIP_LOCALHOST=true): POSTs without a valid token,
 * each sent with the gateway's own Host and again with `Host: localhost:<port>`, otherwise alike.
 */
export function csrfHostProbe(kitRef: KitRef): Probe {
  const id = 'probe:csrf-host';
  const requirements = ['GW-HOST-001'];
  return {
    id: 'csrf-host',
    requirements,
    shared: true,
    run: (env) => withInstance(kitRef(), 'local-dev', requirements, id, async (instance, mock) => {
      const kit = kitRef();
      const csrf = instance.csrf ?? { source: 'double-submit' as const, token: kit.creds.csrf, cookies: [`${csrfCookieName}=${kit.creds.csrf}`] };
      const run = await prepareRun(kit, mock, kit.scenario('plain_text'));
      const control = await sendRun(kit, instance, run, env);
      const base = { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${kit.creds.valid}`, ...(csrf.cookies.length > 0 ? { cookie: csrf.cookies.join('; ') } : {}) };
      const variants: Array<[string, Record<string, string>]> = [
        ['a POST without X-CSRF-Token', base],
        ['a POST with an X-CSRF-Token the gateway never issued and that matches no cookie', { ...base, 'x-csrf-token': strangerToken() }],
      ];
      // Any client can write this Host header, and a reverse proxy on the same machine presents it.
      const host = `localhost:${instance.port}`;
      const sent: Array<{ label: string; plain: { marker: string; x: Exchange }; claimed: { marker: string; x: Exchange } }> = [];
      for (const [i, [label, headers]] of variants.entries()) {
        const one = async (suffix: string, h: Record<string, string>) => {
          const marker = `${kit.session('host')}-${i}${suffix}`;
          return { marker, x: await attempt(instance, { ...run.body, sessionId: marker }, h, env) };
        };
        sent.push({ label, plain: await one('p', headers), claimed: await one('l', { ...headers, host }) });
      }
      await pause(100, env.signal);
      const journal = await mock.journalAll();
      const count = (marker: string): number | { error: string } => (Array.isArray(journal) ? upstreamRuns(journal).filter((r) => r.body.includes(`"${marker}"`)).length : journal);
      const cases = sent.map((c) => ({ label: c.label, plain: { exchange: c.plain.x, upstreamRequests: count(c.plain.marker) }, claimed: { exchange: c.claimed.x, upstreamRequests: count(c.claimed.marker) } }));
      return {
        outcomes: [checkHostClaim(id, control, cases)],
        timeline: [...timelineOf('control: POST /run_sse with a valid CSRF token', control), ...sent.flatMap((c) => [{ t: c.plain.x.durationMs, kind: 'note' as const, summary: `${c.label}, own Host: HTTP ${c.plain.x.status ?? c.plain.x.ending}` }, { t: c.claimed.x.durationMs, kind: 'note' as const, summary: `${c.label}, Host: ${host}: HTTP ${c.claimed.x.status ?? c.claimed.x.ending}` }])],
      };
    }, env),
  };
}

type BodyCase = { label: string; names: string[]; make: (valid: Record<string, unknown>, marker: string) => Record<string, unknown> };

const without = (o: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
const message = (o: Record<string, unknown>) => (o.newMessage ?? {}) as Record<string, unknown>;

/** Seed 004 § Field Requirements, one broken field per body; the marker makes each body findable in the journal. */
export const invalidBodies: readonly BodyCase[] = [
  { label: 'appName is missing', names: ['appName', 'app_name'], make: (v) => without(v, 'appName') },
  { label: 'userId is missing', names: ['userId', 'user_id'], make: (v) => without(v, 'userId') },
  { label: 'sessionId is missing', names: ['sessionId', 'session_id'], make: (v, marker) => ({ ...without(v, 'sessionId'), userId: marker }) },
  { label: 'newMessage is missing', names: ['newMessage', 'new_message'], make: (v) => without(v, 'newMessage') },
  { label: 'newMessage.parts is missing', names: ['parts'], make: (v) => ({ ...v, newMessage: without(message(v), 'parts') }) },
  { label: 'newMessage.role is missing', names: ['role'], make: (v) => ({ ...v, newMessage: without(message(v), 'role') }) },
  { label: 'appName is a number', names: ['appName', 'app_name'], make: (v) => ({ ...v, appName: 42 }) },
  { label: 'newMessage.parts is a string', names: ['parts'], make: (v) => ({ ...v, newMessage: { ...message(v), parts: 'How big was Cedar Creek?' } }) },
];

export function requestValidationProbe(kitRef: KitRef): Probe {
  const id = 'probe:validation';
  const requirements = ['GW-REQ-001', 'GW-REQ-002'];
  return {
    id: 'validation',
    requirements,
    shared: true,
    run: (env) => withInstance(kitRef(), 'main', requirements, id, async (instance, mock): Promise<ScenarioCheck> => {
      const kit = kitRef();
      const run = await prepareRun(kit, mock, kit.scenario('plain_text'));
      const control = await sendRun(kit, instance, run, env);
      const headers = headersFor(kit, instance);
      const sent: Array<{ c: BodyCase; marker: string; x: Exchange }> = [];
      for (const [i, c] of invalidBodies.entries()) {
        const marker = `${kit.session('invalid')}-${i}`;
        const body = c.make({ ...run.body, sessionId: marker }, marker);
        sent.push({ c, marker, x: await attempt(instance, body, headers, env) });
      }
      // A gateway that forwards after answering would show up a moment later.
      await pause(100, env.signal);
      const journal = await mock.journalAll();
      const count = (marker: string): number | { error: string } => (Array.isArray(journal) ? upstreamRuns(journal).filter((r) => r.body.includes(marker)).length : journal);
      const attempts: InvalidBody[] = sent.map(({ c, marker, x }) => ({ label: c.label, names: c.names, exchange: x, upstreamRequests: count(marker) }));
      const outcomes = checkRequestValidation({ probe: id, control: { exchange: control, upstreamRequests: count(String(run.body.sessionId)) }, attempts });
      return { outcomes, timeline: [...timelineOf('control: a valid body', control), ...sent.map(({ c, x }) => ({ t: x.durationMs, kind: 'note' as const, summary: `${c.label}: HTTP ${x.status ?? x.ending}` }))] };
    }, env),
  };
}
