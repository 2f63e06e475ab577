/**
 * `adk-conformance gateway`: flags and environment, the listening line a harness parses, a clean
 * stop on SIGTERM, and `gateway token` minting a token the gateway accepts.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../cli/args.ts';
import { run } from '../cli/commands/gateway.ts';
import { readSse } from '../core/sse.ts';
import { startMock, type RunningMock } from '../mock-adk/server/start.ts';
import { createSession, rawRequest } from './gateway-fixtures.ts';

const secret = 'a-development-secret-of-32-bytes!';
const bin = fileURLToPath(new URL('../bin/adk-conformance.js', import.meta.url));
const body = (sessionId: string) => JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId, newMessage: { role: 'user', parts: [{ text: 'hi' }] } });

let mock: RunningMock;
beforeAll(async () => { mock = await startMock({}); });
afterAll(async () => { await mock.close(); });

function io(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let stop: (signal: string) => void = () => undefined;
  let listening: (url: string) => void = () => undefined;
  const url = new Promise<string>((resolve) => { listening = resolve; });
  return {
    out, err, url,
    stop: (signal: string) => stop(signal),
    io: {
      out: (line: string) => { out.push(line); const m = /^gateway listening on (\S+)/.exec(line); if (m?.[1]) listening(m[1]); },
      err: (line: string) => err.push(line),
      env,
      stopSignal: new Promise<string>((resolve) => { stop = resolve; }),
    },
  };
}

describe('adk-conformance gateway', () => {
  it('serves with the flags given and stops on the stop signal', async () => {
    const t = io({});
    const exit = run(['--port', '0', '--upstream', mock.url, '--enable-canonical', '--allow-unauthenticated', '--timeout-ms', '5000'], t.io);
    const url = await t.url;
    expect(t.out[0]).toBe(`gateway listening on ${url} (upstream ${mock.url})`);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.err).toEqual(['note: ALLOW_UNAUTHENTICATED_SSE=true: no JWT is checked (development only)']);
    await createSession(mock.url, 'plain_text', 'u1', 's-cli-1');
    const res = await rawRequest(`${url}/run_sse`, { body: body('s-cli-1') });
    expect(readSse(res.body).frames).toHaveLength(1);
    t.stop('SIGTERM');
    expect(await exit).toBe(0);
    expect(t.out.at(-1)).toBe('SIGTERM: closing the gateway');
  });

  it('reads PORT and ADK_UPSTREAM_URL and says when the feature flag is off', async () => {
    const t = io({ PORT: '0', ADK_UPSTREAM_URL: mock.url, JWT_SECRET: secret });
    const exit = run([], t.io);
    const url = await t.url;
    expect(t.out[0]).toBe(`gateway listening on ${url} (upstream ${mock.url})`);
    expect(t.err).toEqual(['note: ENABLE_ADK_CANONICAL_STREAM is not true, so POST /run_sse answers 501 (seed 004 feature flag)']);
    expect((await rawRequest(`${url}/run_sse`, { body: body('s-cli-2') })).status).toBe(501);
    t.stop('SIGINT');
    expect(await exit).toBe(0);
  });

  it('turns a setting it cannot read into a usage error naming it', async () => {
    await expect(run(['--port', '0'], io({ ENABLE_ADK_CANONICAL_STREAM: 'yes', JWT_SECRET: secret }).io)).rejects.toThrow(new UsageError("environment: ENABLE_ADK_CANONICAL_STREAM must be 'true' or 'false', got 'yes'"));
    await expect(run(['--port', '0'], io({}).io)).rejects.toThrow(/exactly one key source/);
    await expect(run(['--prot', '1'], io({}).io)).rejects.toThrow(/unknown option '--prot' \(did you mean '--port'\?\)/);
    await expect(run(['--port', '99999'], io({}).io)).rejects.toThrow(/--port must be an integer from 0 to 65535/);
  });

  it('mints a development token the gateway accepts', async () => {
    const t = io({});
    expect(await run(['token', '--secret', secret, '--sub', 'dev-1', '--expires-in', '60'], t.io)).toBe(0);
    const token = t.out[0] ?? '';
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: 'dev-1' });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
    await expect(run(['token', '--secret', 'short'], io({}).io)).rejects.toThrow(/at least 32 bytes/);
    await expect(run(['token'], io({}).io)).rejects.toThrow(/--secret is required/);
  });

  it('runs as a process a harness spawns, and exits 0 on SIGTERM', async () => {
    await createSession(mock.url, 'plain_text', 'u1', 's-cli-3');
    const child = spawn(process.execPath, [bin, 'gateway'], {
      env: { ...process.env, PORT: '0', ADK_UPSTREAM_URL: mock.url, ENABLE_ADK_CANONICAL_STREAM: 'true', ALLOW_UNAUTHENTICATED_SSE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const m = /gateway listening on (\S+) \(upstream (\S+)\)/.exec(stdout);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`the gateway exited with ${code} before listening: ${stdout}`)));
    });
    const res = await rawRequest(`${url}/run_sse`, { body: body('s-cli-3') });
    expect(readSse(res.body).frames).toHaveLength(1);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toContain('SIGTERM: closing the gateway');
  });
});
