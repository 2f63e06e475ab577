/**
 * What adk-python 2.x and adk-go answer a run request before any stream starts, through
 * `app.inject()`: adk-python `src/google/adk/cli/api_server.py`@024a438920293e9de5f95b58c0669f858d39fa6f
 * (run_agent_sse, get_runner_async, RunAgentRequest) and adk-go
 * `server/adkrest/controllers/runtime.go`@0a51e153ad5a72ad8a003c5c0ef8d8e98f88139e (RunSSEHandler,
 * decodeRequestBody, validateSessionExists, getRunner). See run-gates.ts and run-request-go.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadScenarios } from '../../scenarios/loader.ts';
import type { Dialect } from '../core/types.ts';
import { buildMockApp } from './app.ts';
import type { MockAppOptions } from './app.ts';

const { scenarios } = loadScenarios();
const apps: FastifyInstance[] = [];
function app(dialect: Dialect, options: Partial<MockAppOptions> = {}): FastifyInstance {
  const built = buildMockApp({ dialect, scenarios, timeScale: 0, scenariosDir: '/srv/agents', ...options });
  apps.push(built);
  return built;
}
afterAll(async () => { await Promise.all(apps.map((a) => a.close())); });

const json = { 'content-type': 'application/json' };
const message = { role: 'user', parts: [{ text: 'How big was Cedar Creek?' }] };
const body = (fields: Record<string, unknown>) => JSON.stringify({ userId: 'u1', sessionId: 's1', newMessage: message, ...fields });
const post = (a: FastifyInstance, payload: string, url = '/run_sse') => a.inject({ method: 'POST', url, headers: json, payload });
const createSession = (a: FastifyInstance, appName: string, sessionId = 's1') => a.inject({ method: 'POST', url: `/apps/${appName}/users/u1/sessions/${sessionId}`, headers: json, payload: '{}' });
/** Header names in the order the mock wrote them (lower-cased by the inject parser). */
const headerNames = (headers: Record<string, unknown>) => Object.keys(headers);

describe('adk-python@2.x before the stream', () => {
  const py = 'adk-python@2.x' as Dialect;

  it('answers a request without app_name, and no ADK_DEFAULT_APP_NAME, with 400 in FastAPI bytes', async () => {
    for (const payload of [body({}), body({ appName: null }), body({ app_name: '' })]) {
      const response = await post(app(py), payload);
      expect(response.statusCode).toBe(400);
      expect(response.body).toBe('{"detail":"app_name is required when ADK_DEFAULT_APP_NAME is not set"}');
      expect(headerNames(response.headers)).toEqual(['date', 'server', 'content-length', 'content-type']);
      expect([response.headers['content-type'], response.headers['content-length']]).toEqual(['application/json', String(response.body.length)]);
    }
  });

  it('runs the default app when app_name is absent and a default is set', async () => {
    const a = app(py, { defaultAppName: 'plain_text' });
    await createSession(a, 'plain_text');
    const response = await post(a, body({}));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  });

  it('refuses `__` apps with 403 before loading, whether or not they exist', async () => {
    const response = await post(app(py), body({ appName: '__builder' }));
    expect([response.statusCode, response.body]).toEqual([403, '{"detail":"Access to internal special agents is disabled in API server mode."}']);
  });

  it("answers an app the loader cannot find with 404 and the loader's ValueError text, before the session check", async () => {
    const response = await post(app(py), body({ appName: 'no-such-app', sessionId: 'never-created' }));
    expect(response.statusCode).toBe(404);
    const detail = (response.json() as { detail: string }).detail;
    expect(detail.startsWith("No root_agent found for 'no-such-app'. Searched in 'no-such-app.agent.root_agent'")).toBe(true);
    expect(detail.endsWith("Ensure '/srv/agents/no-such-app' is structured correctly, an .env file can be loaded if present, and a root_agent is exposed.")).toBe(true);
  });

  it('answers a dotted app name (not a ValueError in importlib) with the bare 500', async () => {
    const response = await post(app(py), body({ appName: 'pkg.missing' }));
    expect([response.statusCode, response.body, response.headers['content-type']]).toEqual([500, 'Internal Server Error', 'text/plain; charset=utf-8']);
  });

  it('answers a missing session of a known app with 404 `Session not found: <id>`', async () => {
    const response = await post(app(py), body({ appName: 'plain_text', sessionId: 's-none' }));
    expect([response.statusCode, response.body]).toEqual([404, '{"detail":"Session not found: s-none"}']);
  });

  it('accepts custom_metadata (a dict) and refuses any other type with 422', async () => {
    const a = app(py);
    await createSession(a, 'plain_text');
    expect((await post(a, body({ appName: 'plain_text', custom_metadata: { tenant: 't1' } }))).statusCode).toBe(200);
    const bad = await post(a, body({ appName: 'plain_text', customMetadata: 'x' }));
    expect(bad.statusCode).toBe(422);
    expect((bad.json() as { detail: Array<{ type: string; loc: string[] }> }).detail[0]).toMatchObject({ type: 'dict_type', loc: ['body', 'customMetadata'] });
  });

  it('keeps Gen C its own: there a missing app name is a 422 and an unknown app a bare 500', async () => {
    const missing = await post(app('adk-python'), body({}));
    expect(missing.statusCode).toBe(422);
    const unknown = await post(app('adk-python'), body({ appName: 'no_such_app' }));
    expect([unknown.statusCode, unknown.body]).toEqual([500, 'Internal Server Error']);
  });
});

describe('adk-go@2.0.0 before the stream', () => {
  const go = 'adk-go@2.0.0' as Dialect;
  const goText = ['content-type', 'x-content-type-options', 'date', 'content-length'];

  it.each([
    ['a snake_case key', body({ app_name: 'plain_text' }), 'json: unknown field "app_name"'],
    ['an unknown key inside newMessage', body({ appName: 'plain_text', newMessage: { role: 'user', parts: [], extra: 1 } }), 'json: unknown field "extra"'],
    ['a mistyped field', body({ appName: 'plain_text', streaming: 'yes' }), 'json: cannot unmarshal string into Go struct field RunAgentRequest.streaming of type bool'],
    ['a mistyped part', body({ appName: 'plain_text', newMessage: { parts: [{ text: 5 }] } }), 'json: cannot unmarshal number into Go struct field RunAgentRequest.newMessage.parts.text of type string'],
    ['an array body', '[1]', 'json: cannot unmarshal array into Go value of type models.RunAgentRequest'],
    ['broken JSON', '{"appName":}', "invalid character '}' looking for beginning of value"],
    ['a cut-off body', '{"appName":"plain_text"', 'unexpected EOF'],
    ['an empty body', '', 'EOF'],
  ])('answers %s with a plain-text 400 from the decoder', async (_name, payload, cause) => {
    const response = await post(app(go), payload);
    expect(response.statusCode).toBe(400);
    expect(response.body).toBe(`failed to decode request body: failed to decode request: ${cause}\n`);
    expect(headerNames(response.headers)).toEqual(goText);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('drops the handler prefix on /run (NewErrorHandler writes the statusError)', async () => {
    const response = await post(app(go), body({ app_name: 'x' }), '/run');
    expect([response.statusCode, response.body]).toEqual([400, 'failed to decode request: json: unknown field "app_name"\n']);
  });

  it('matches keys case-insensitively, as encoding/json does', async () => {
    const a = app(go);
    await createSession(a, 'plain_text');
    const response = await post(a, JSON.stringify({ APPNAME: 'plain_text', userid: 'u1', SessionId: 's1', newMessage: message }));
    expect(response.statusCode).toBe(200);
  });

  it('looks the session up before the agent: an unknown app without a session is the session 404', async () => {
    const response = await post(app(go), body({ appName: 'no_such_app', sessionId: 's-none' }));
    expect([response.statusCode, response.body]).toEqual([404, 'failed to find the session: failed to get session: session s-none not found\n']);
    const empty = await post(app(go), JSON.stringify({ userId: 'u1', sessionId: 's1' }));
    expect(empty.body).toBe('failed to find the session: failed to get session: app_name, user_id, session_id are required, got app_name: "", user_id: "u1", session_id: "s1"\n');
  });

  it('answers an unknown app on an existing session with 500 `failed to get runner`', async () => {
    const a = app(go);
    await createSession(a, 'no_such_app');
    const response = await post(a, body({ appName: 'no_such_app' }));
    expect(response.statusCode).toBe(500);
    expect(response.body).toMatch(/^failed to get runner: failed to load agent: agent no_such_app not found\. Please specify one of those: \[\S+( \S+)*\]\n$/);
    expect(headerNames(response.headers)).toEqual(goText);
    const run = await post(a, body({ appName: 'no_such_app' }), '/run');
    expect(run.body.startsWith('failed to load agent: agent no_such_app not found.')).toBe(true);
  });

  it('checks no message: empty parts still run the agent', async () => {
    const a = app(go);
    await createSession(a, 'plain_text');
    const response = await post(a, body({ appName: 'plain_text', newMessage: { role: 'user', parts: [] } }));
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('event: error');
  });

  it('replays a scripted plain-text answer with net/http header order', async () => {
    const a = app(go);
    const response = await post(a, body({ appName: 'session_not_found_adk_go', sessionId: 's-missing-go' }));
    expect([response.statusCode, response.body]).toEqual([404, 'failed to find the session: failed to get session: session s-missing-go not found\n']);
    expect(headerNames(response.headers)).toEqual(goText);
  });
});
