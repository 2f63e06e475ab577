/**
 * Seed 004 § Legacy Pattern over real sockets: POST .../run answers {success, sessionId} and
 * starts the run against the real mock; GET .../run streams research_update / agent_status /
 * research_complete, replays for a late reader, and runs nobody reads are dropped after a bound.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../core/sse.ts';
import { startGateway, type RunningGateway } from '../reference-impl/gateway/start.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { createSession, getJson, rawRequest, startStack, until, type GatewayStreams, type Stack } from './gateway-fixtures.ts';

const { scenarios } = loadScenarios();
const finalText = (id: string) => {
  const s = scenarios.find((x) => x.id === id);
  if (!s?.expect.finalText) throw new Error(`the corpus has no ${id} scenario with a finalText`);
  return s.expect.finalText;
};

let stack: Stack;
beforeAll(async () => { stack = await startStack({ legacy: { unreadTtlMs: 60_000 } }); });
afterAll(async () => { await stack.close(); });

const path = (app: string, session: string, user = 'u1') => `/apps/${app}/users/${user}/sessions/${session}/run`;
const legacyStats = async (gateway: RunningGateway | Stack['gateway'] = stack.gateway) => (await getJson<GatewayStreams>(`${gateway.url}/_gateway/stats`)).legacy;

async function start(app: string, session: string, body: Record<string, unknown> = { query: 'How big was Cedar Creek?' }, gateway = stack.gateway, headers: Record<string, string> = {}) {
  const res = await rawRequest(`${gateway.url}${path(app, session)}`, { body: JSON.stringify(body), headers });
  return { status: res.status, json: JSON.parse(res.body.toString()) as Record<string, unknown> };
}

async function read(app: string, session: string, headers: Record<string, string> = {}, gateway = stack.gateway) {
  const res = await rawRequest(`${gateway.url}${path(app, session)}`, { method: 'GET', headers });
  const { frames } = readSse(res.body);
  return { status: res.status, res, events: frames.map((f) => ({ event: f.event, id: f.id, data: JSON.parse(f.data) as Record<string, unknown> })) };
}

describe('legacy two-step (GW-LEGACY-001, GW-LEGACY-002)', () => {
  it('starts the run with POST and streams the derived events with GET', async () => {
    await createSession(stack.mock.url, 'single_tool_call', 'u1', 's-legacy-1');
    const started = await start('single_tool_call', 's-legacy-1');
    expect(started).toEqual({ status: 200, json: { success: true, sessionId: 's-legacy-1' } });
    const { status, events, res } = await read('single_tool_call', 's-legacy-1');
    expect(status).toBe(200);
    expect(res.rawHeaders.find(([n]) => n.toLowerCase() === 'content-type')?.[1]).toBe('text/event-stream');
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => String(i + 1)));
    expect(events.map((e) => [e.event, e.data.status ?? null])).toEqual([
      ['agent_status', 'active'],
      ['agent_status', 'calling_tool'],
      ['agent_status', 'tool_complete'],
      ['research_update', null],
      ['research_complete', 'complete'],
    ]);
    expect(events.at(-1)?.data).toMatchObject({ sessionId: 's-legacy-1', status: 'complete', finalReport: finalText('single_tool_call') });
    const journal = await getJson<{ requests: Array<{ url: string; body: string }> }>(`${stack.mock.url}/_mock/requests?sessionId=s-legacy-1`);
    const run = journal.requests.find((r) => r.url === '/run_sse');
    expect(JSON.parse(run?.body ?? 'null')).toEqual({ appName: 'single_tool_call', userId: 'u1', sessionId: 's-legacy-1', newMessage: { role: 'user', parts: [{ text: 'How big was Cedar Creek?' }] }, streaming: false });
  });

  it('replays the whole run to a GET that comes after it finished, and honours Last-Event-ID', async () => {
    await createSession(stack.mock.url, 'plain_text', 'u1', 's-legacy-late');
    const before = await legacyStats();
    await start('plain_text', 's-legacy-late');
    await until(legacyStats, (s) => s.completed > before.completed);
    const all = await read('plain_text', 's-legacy-late');
    expect(all.events.map((e) => e.event)).toEqual(['agent_status', 'research_update', 'research_complete']);
    expect(all.events.at(-1)?.data.finalReport).toBe(finalText('plain_text'));
    const rest = await read('plain_text', 's-legacy-late', { 'last-event-id': '2' });
    expect(rest.events.map((e) => [e.id, e.event])).toEqual([['3', 'research_complete']]);
  });

  it('reports an upstream failure in research_complete', async () => {
    await start('plain_text', 's-legacy-no-session');
    const { events } = await read('plain_text', 's-legacy-no-session');
    expect(events.at(-1)).toMatchObject({ event: 'research_complete', data: { status: 'error', error: 'ADK upstream error: 404: Session not found: s-legacy-no-session' } });
  });

  it('refuses a bad body, a second POST while running, and a GET with no run', async () => {
    expect((await start('plain_text', 's-legacy-bad', { q: 'x' })).json).toMatchObject({ code: 'GW_INVALID_REQUEST', reason: '/query: must be a non-empty string' });
    expect((await read('plain_text', 's-legacy-none')).res.status).toBe(404);
    await createSession(stack.mock.url, 'missing_done_hold_open', 'u1', 's-legacy-held');
    expect((await start('missing_done_hold_open', 's-legacy-held')).status).toBe(200);
    expect((await start('missing_done_hold_open', 's-legacy-held')).json).toMatchObject({ code: 'GW_LEGACY_RUN_ACTIVE' });
  });

  it('drops a finished run nobody read after LEGACY_UNREAD_TTL_MS and counts it', async () => {
    const gateway = await startGateway({ config: { auth: { mode: 'off' }, upstreamUrl: stack.mock.url, legacy: { unreadTtlMs: 50 } } });
    try {
      await createSession(stack.mock.url, 'plain_text', 'u1', 's-legacy-unread');
      await start('plain_text', 's-legacy-unread', undefined, gateway);
      const stats = await until(() => legacyStats(gateway), (s) => s.droppedUnread === 1);
      expect(stats).toMatchObject({ started: 1, completed: 1, droppedUnread: 1, held: 0 });
      expect((await read('plain_text', 's-legacy-unread', {}, gateway)).status).toBe(404);
    } finally {
      await gateway.close();
    }
  });

  it('lets only the token subject that started a run read it', async () => {
    const secret = 'a-development-secret-of-32-bytes!';
    const gateway = await startGateway({ config: { auth: { mode: 'jwt', secret, clockToleranceSec: 5 }, upstreamUrl: stack.mock.url } });
    const token = (sub: string) => new SignJWT({ sub }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(secret));
    try {
      await createSession(stack.mock.url, 'plain_text', 'u1', 's-legacy-owner');
      expect((await start('plain_text', 's-legacy-owner', undefined, gateway)).status).toBe(401);
      expect((await start('plain_text', 's-legacy-owner', undefined, gateway, { authorization: `Bearer ${await token('alice')}` })).status).toBe(200);
      expect((await read('plain_text', 's-legacy-owner', { authorization: `Bearer ${await token('mallory')}` }, gateway)).res.status).toBe(403);
      const viaCookie = await read('plain_text', 's-legacy-owner', { cookie: `access_token=${await token('alice')}` }, gateway);
      expect(viaCookie.events.at(-1)?.event).toBe('research_complete');
    } finally {
      await gateway.close();
    }
  });

  it('answers whatever the canonical feature flag says', async () => {
    const gateway = await startGateway({ config: { auth: { mode: 'off' }, upstreamUrl: stack.mock.url, canonicalStreamEnabled: false } });
    try {
      await createSession(stack.mock.url, 'plain_text', 'u1', 's-legacy-flag');
      expect((await start('plain_text', 's-legacy-flag', undefined, gateway)).status).toBe(200);
      expect((await read('plain_text', 's-legacy-flag', {}, gateway)).events.at(-1)?.data.status).toBe('complete');
    } finally {
      await gateway.close();
    }
  });
});
