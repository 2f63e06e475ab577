import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from './start.ts';
import { callLocalMock } from './local-calls.ts';

let mocks: RunningMock[] = [];
afterEach(async () => { await Promise.all(mocks.map((m) => m.close())); mocks = []; });

async function mock(dialect?: string): Promise<RunningMock> {
  const m = await startMock({ host: '127.0.0.1', port: 0, logger: false, ...(dialect ? { dialect: dialect as never } : {}) });
  mocks.push(m);
  return m;
}

const journal = async (m: RunningMock) => ((await (await fetch(`${m.url}/_mock/requests`)).json()) as { requests: Array<{ method: string; url: string; body: string; sessionId?: string }> }).requests;

describe('calls to a mock in the same process (local-calls.ts)', () => {
  it('answers session and control routes exactly as HTTP does, and journals the session call the same way', async () => {
    const [a, b] = [await mock(), await mock()];
    const path = '/apps/plain_text/users/u1/sessions/s%201';
    const overHttp = await fetch(`${a.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"state":{"k":1}}' });
    const local = callLocalMock(`${b.url}${path}`, 'POST', '{"state":{"k":1}}');
    const norm = (t: string) => t.replace(/"lastUpdateTime":[0-9.]+/, '"lastUpdateTime":0');
    expect(local && { status: local.status, text: norm(local.text) }).toEqual({ status: overHttp.status, text: norm(await overHttp.text()) });
    // A duplicate id is refused the same way (adk-js: 400).
    const again = await fetch(`${a.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(callLocalMock(`${b.url}${path}`, 'POST', '{}')).toEqual({ status: again.status, text: await again.text() });
    const pick = (j: Awaited<ReturnType<typeof journal>>) => j.map((r) => ({ method: r.method, url: r.url, body: r.body }));
    expect(pick(await journal(b))).toEqual(pick(await journal(a)));
    // Control routes: arm, then the journal read in process.
    expect(callLocalMock(`${b.url}/_mock/arm`, 'POST', JSON.stringify({ sessionId: 's 1', scenario: 'plain_text' }))?.status).toBe(200);
    expect(callLocalMock(`${b.url}/_mock/arm`, 'POST', JSON.stringify({ sessionId: 's 1', scenario: 'no-such-scenario' }))?.status).toBe(404);
    expect(JSON.parse(callLocalMock(`${b.url}/_mock/requests?sessionId=${encodeURIComponent('s 1')}`, 'GET')?.text ?? '{}')).toMatchObject({ requests: [{ method: 'POST' }, { method: 'POST' }] });
  });

  it('leaves every other route, another origin and a closed mock to HTTP (undefined)', async () => {
    const m = await mock();
    expect(callLocalMock(`${m.url}/run_sse`, 'POST', '{}')).toBeUndefined();
    expect(callLocalMock(`${m.url}/apps/a/users/u/sessions/s/run`, 'POST', '{}')).toBeUndefined();
    expect(callLocalMock(`${m.url}/_mock/arm`, 'GET')).toBeUndefined();
    expect(callLocalMock('http://127.0.0.1:1/_mock/streams', 'GET')).toBeUndefined();
    expect(callLocalMock(`${m.url}/apps/a/users/u/sessions/%E0%A4%A`, 'POST', '{}')).toBeUndefined();
    expect(callLocalMock(`${m.url}/_mock/streams`, 'GET')?.status).toBe(200);
    await m.close();
    expect(callLocalMock(`${m.url}/_mock/streams`, 'GET')).toBeUndefined();
  });

  it('applies the adk-python 2.x origin gate as the HTTP route does', async () => {
    const m = await mock('adk-python@2.x');
    const overHttp = await fetch(`${m.url}/apps/a/users/u/sessions/s1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(overHttp.status).toBe(200);
    expect(callLocalMock(`${m.url}/apps/a/users/u/sessions/s2`, 'POST', '{}')?.status).toBe(200);
  });
});
