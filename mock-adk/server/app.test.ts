/**
 * The mock's routes without a socket (`app.inject()`): sessions, the small routes, and bad input
 * per dialect, each answered like the real server (research/adk-wire-format.md §1, §6, §7;
 * research/adk-python-facts.md §1).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadScenarios } from '../../scenarios/loader.ts';
import type { Dialect } from '../core/types.ts';
import { buildMockApp } from './app.ts';

const { scenarios } = loadScenarios();
const apps: FastifyInstance[] = [];
function app(dialect: Dialect): FastifyInstance {
  const built = buildMockApp({ dialect, scenarios });
  apps.push(built);
  return built;
}
afterAll(async () => { await Promise.all(apps.map((a) => a.close())); });

const json = { 'content-type': 'application/json' };
const message = { role: 'user', parts: [{ text: 'How big was Cedar Creek?' }] };
const runBody = (appName: string, sessionId = 's1', extra: Record<string, unknown> = {}) => JSON.stringify({ appName, userId: 'u1', sessionId, newMessage: message, ...extra });

async function createSession(a: FastifyInstance, appName: string, sessionId = 's1') {
  return a.inject({ method: 'POST', url: `/apps/${appName}/users/u1/sessions/${sessionId}`, headers: json, payload: '{}' });
}

describe('small routes', () => {
  it('list-apps answers the scenario ids, sorted', async () => {
    const response = await app('adk-js').inject({ method: 'GET', url: '/list-apps' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(scenarios.map((s) => s.id).sort());
  });

  it.each([
    ['adk-js', 'OK', '{"version":"2.0.0"}'],
    ['adk-python', '{"status":"ok"}', '"language":"python"'],
  ] as const)('health and version answer in the %s form', async (dialect, health, version) => {
    const a = app(dialect);
    expect((await a.inject({ method: 'GET', url: '/health' })).body).toBe(health);
    expect((await a.inject({ method: 'GET', url: '/version' })).body).toContain(version);
  });

  it.each([
    ['adk-js', 404, '<pre>Cannot GET /run_sse</pre>'],
    ['adk-python', 405, '{"detail":"Method Not Allowed"}'],
  ] as const)('a GET on /run_sse gets the %s answer for a wrong method', async (dialect, status, body) => {
    const response = await app(dialect).inject({ method: 'GET', url: '/run_sse' });
    expect(response.statusCode).toBe(status);
    expect(response.body).toContain(body);
  });

  it('adk-js answers OPTIONS like Express: 200 with Allow and no CORS headers', async () => {
    const response = await app('adk-js').inject({ method: 'OPTIONS', url: '/run_sse', headers: { origin: 'http://evil.test' } });
    expect([response.statusCode, response.headers['allow'], response.body]).toEqual([200, 'POST', 'POST']);
    expect(Object.keys(response.headers).some((h) => h.startsWith('access-control-'))).toBe(false);
  });

  it.each([
    ['adk-js', '<pre>Cannot GET /no/such/route</pre>'],
    ['adk-python', '{"detail":"Not Found"}'],
  ] as const)('an unknown route gets the %s 404', async (dialect, body) => {
    const response = await app(dialect).inject({ method: 'GET', url: '/no/such/route' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain(body);
  });
});

describe('sessions', () => {
  it('adk-js creates a session for any app, refuses a duplicate with 400, lists a page, deletes with 204', async () => {
    const a = app('adk-js');
    const created = await createSession(a, 'not_a_scenario');
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ id: 's1', appName: 'not_a_scenario', userId: 'u1', state: {}, events: [] });
    const duplicate = await createSession(a, 'not_a_scenario');
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toEqual({ error: 'Session already exists: s1' });
    const listed = await a.inject({ method: 'GET', url: '/apps/not_a_scenario/users/u1/sessions' });
    expect(listed.json()).toMatchObject({ sessions: [{ id: 's1', state: {}, events: [] }], page: 1, totalItems: 1 });
    expect((await a.inject({ method: 'DELETE', url: '/apps/not_a_scenario/users/u1/sessions/s1' })).statusCode).toBe(204);
    const gone = await a.inject({ method: 'DELETE', url: '/apps/not_a_scenario/users/u1/sessions/s1' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'Session not found: s1' });
  });

  it('adk-python refuses a duplicate with 409, lists a plain list, deletes with 200 null either way', async () => {
    const a = app('adk-python');
    expect((await createSession(a, 'plain_text')).statusCode).toBe(200);
    const duplicate = await createSession(a, 'plain_text');
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ detail: 'Session already exists: s1' });
    expect((await a.inject({ method: 'GET', url: '/apps/plain_text/users/u1/sessions' })).json()).toMatchObject([{ id: 's1' }]);
    for (let i = 0; i < 2; i++) {
      const deleted = await a.inject({ method: 'DELETE', url: '/apps/plain_text/users/u1/sessions/s1' });
      expect([deleted.statusCode, deleted.body]).toEqual([200, 'null']);
    }
  });

  it.each([
    ['adk-js', { error: 'Session not found: nope' }],
    ['adk-python', { detail: 'Session not found' }],
  ] as const)('%s answers a missing session on GET with its 404 body', async (dialect, body) => {
    const response = await app(dialect).inject({ method: 'GET', url: '/apps/plain_text/users/u1/sessions/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(body);
  });

  it('create without an id draws a uuid v4 (adk-js) and takes the body sessionId (adk-python)', async () => {
    const js = await app('adk-js').inject({ method: 'POST', url: '/apps/plain_text/users/u1/sessions', headers: json, payload: '{"state":{"k":1}}' });
    expect(js.json()).toMatchObject({ state: { k: 1 } });
    expect((js.json() as { id: string }).id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const py = await app('adk-python').inject({ method: 'POST', url: '/apps/plain_text/users/u1/sessions', headers: json, payload: '{"sessionId":"mine"}' });
    expect(py.json()).toMatchObject({ id: 'mine' });
  });

  it('a session keeps the non-partial events of its runs', async () => {
    const a = app('adk-js');
    await createSession(a, 'plain_text');
    await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: runBody('plain_text', 's1', { streaming: true }) });
    const session = (await a.inject({ method: 'GET', url: '/apps/plain_text/users/u1/sessions/s1' })).json() as { events: Array<{ partial?: boolean }> };
    expect(session.events.length).toBeGreaterThan(0);
    expect(session.events.every((e) => e.partial !== true)).toBe(true);
  });
});

describe('bad run requests, answered like the real server', () => {
  it.each([
    ['adk-js', 404, '{"error":"Session not found: s-none"}', 'application/json; charset=utf-8'],
    ['adk-python', 404, '{"detail":"Session not found: s-none"}', 'application/json'],
  ] as const)('%s answers a run on a missing session with its 404', async (dialect, status, body, type) => {
    const response = await app(dialect).inject({ method: 'POST', url: '/run_sse', headers: json, payload: runBody('plain_text', 's-none') });
    expect([response.statusCode, response.body, response.headers['content-type']]).toEqual([status, body, type]);
  });

  it('adk-js answers malformed JSON with the Express 400 page naming the SyntaxError', async () => {
    const response = await app('adk-js').inject({ method: 'POST', url: '/run_sse', headers: json, payload: '{"appName": plain' });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('SyntaxError: ');
  });

  it('adk-python answers malformed JSON with a 422 json_invalid detail list', async () => {
    const response = await app('adk-python').inject({ method: 'POST', url: '/run_sse', headers: json, payload: '{"appName": plain' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ detail: [{ type: 'json_invalid', loc: ['body', 12] }] });
  });

  it('adk-python lists every missing field in its 422, under the camelCase alias', async () => {
    const response = await app('adk-python').inject({ method: 'POST', url: '/run_sse', headers: json, payload: '{"newMessage":{"parts":[{"text":"x"}]}}' });
    expect(response.statusCode).toBe(422);
    const detail = (response.json() as { detail: Array<{ type: string; loc: string[] }> }).detail;
    expect(detail.map((d) => [d.type, d.loc])).toEqual([['missing', ['body', 'appName']], ['missing', ['body', 'userId']], ['missing', ['body', 'sessionId']]]);
  });

  it('adk-python accepts snake_case keys', async () => {
    const a = app('adk-python');
    await createSession(a, 'plain_text');
    const response = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: JSON.stringify({ app_name: 'plain_text', user_id: 'u1', session_id: 's1', new_message: message }) });
    expect(response.statusCode).toBe(200);
    expect(response.body.startsWith('data: {')).toBe(true);
  });

  it('adk-js reads no body without Content-Type application/json, so no session is found', async () => {
    const response = await app('adk-js').inject({ method: 'POST', url: '/run_sse', headers: { 'content-type': 'text/plain' }, payload: runBody('plain_text') });
    expect([response.statusCode, response.body]).toEqual([404, '{"error":"Session not found: undefined"}']);
  });

  it('adk-js streams the agent-not-found error for an unknown app whose session exists', async () => {
    const a = app('adk-js');
    await createSession(a, 'no_such_app');
    const response = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: runBody('no_such_app') });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(response.body).toMatch(/^data: \{"error":"Agent 'no_such_app' not found in .+\. Available agents: [a-z0-9_, ]+"\}\n\n$/);
  });

  it('adk-python answers an unknown app with a bare 500 before it looks at the session', async () => {
    const response = await app('adk-python').inject({ method: 'POST', url: '/run_sse', headers: json, payload: runBody('no_such_app') });
    expect([response.statusCode, response.body]).toEqual([500, 'Internal Server Error']);
  });

  it.each([
    ['adk-js', 'data: {"error":"No parts in the newMessage."}\n\n'],
    ['adk-python', 'data: {"error": "No parts in the new_message."}\n\n'],
  ] as const)('%s streams the no-parts error for a message with empty parts', async (dialect, body) => {
    const a = app(dialect);
    await createSession(a, 'plain_text');
    const response = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [] } }) });
    expect([response.statusCode, response.body]).toEqual([200, body]);
  });

  it('adk-js answers a run without newMessage with SSE headers and an empty body', async () => {
    const a = app('adk-js');
    await createSession(a, 'plain_text');
    const response = await a.inject({ method: 'POST', url: '/run_sse', headers: json, payload: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 's1' }) });
    expect([response.statusCode, response.headers['content-type'], response.body]).toEqual([200, 'text/event-stream', '']);
  });
});

describe('requests fastify itself refuses', () => {
  it.each([
    ['adk-js', /^\{"error":".+"\}$/],
    ['adk-python', /^\{"detail":".+"\}$/],
  ] as const)('%s answers an undecodable URL with a 400 in its JSON error form', async (dialect, body) => {
    const response = await app(dialect).inject({ method: 'GET', url: '/apps/%E0%A4%A/users/u1/sessions/s1' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(body);
  });

  it('answers a body over the 50 MB limit with 413', async () => {
    const response = await app('adk-js').inject({ method: 'POST', url: '/run_sse', headers: json, payload: 'x'.repeat(50 * 1024 * 1024 + 1) });
    expect(response.statusCode).toBe(413);
  });
});
