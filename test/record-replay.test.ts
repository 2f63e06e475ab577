/**
 * Record and replay, tried as a new user would, with real processes and sockets on 127.0.0.1:
 * a running mock stands in for a real ADK server; `record` captures two runs into new scenario
 * files, `lint-scenarios` accepts them, a second mock replays them byte for byte, the recording
 * proxy captures a run passing through it, and `run` certifies an implementation against the
 * recordings with a config file and an applicability profile. Secrets sent with a run never
 * reach a file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultScenariosDir } from '../scenarios/loader.ts';
import { rawRequest } from './mock-support.ts';

const repo = join(import.meta.dirname, '..');
// The loader by absolute URL: a child whose working folder is a user's project still finds it.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const entry = join(repo, 'test', 'record-cli-entry.ts');
const work = mkdtempSync(join(tmpdir(), 'record-replay-'));
const recorded = join(work, 'scenarios');
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  rmSync(work, { recursive: true, force: true });
});

function cli(args: string[], cwd = repo): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, entry, ...args], { cwd, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `adk-conformance mock ...` as a long-running child; resolves with the URL its banner prints. */
function serveMock(args: string[]): Promise<{ url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', tsxLoader, entry, 'mock', '--host', '127.0.0.1', '--port', '0', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let text = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
      if (url) resolve({ url, output: () => text });
    });
    child.stderr!.on('data', (c: Buffer) => { text += c.toString('utf8'); });
    child.on('exit', (code) => reject(new Error(`mock exited with ${code} before listening:\n${text}`)));
  });
}

const json = { 'content-type': 'application/json' };
async function runScenario(url: string, app: string, session: string, streaming: boolean, headers: Record<string, string> = {}) {
  await rawRequest(url, { method: 'POST', path: `/apps/${app}/users/u1/sessions/${session}`, headers: { ...json, ...headers }, body: '{}' });
  return rawRequest(url, { method: 'POST', path: '/run_sse', headers: { ...json, ...headers }, body: JSON.stringify({ appName: app, userId: 'u1', sessionId: session, newMessage: { role: 'user', parts: [{ text: 'Give me a recovery briefing for Cedar Creek Fire' }] }, streaming }) });
}

type BytesScenario = { upstream: { headers: Array<[string, string]>; chunks: Array<{ text?: string; base64?: string }> } };
const scriptedBody = (s: BytesScenario) => Buffer.concat(s.upstream.chunks.map((c) => (c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.base64 ?? '', 'base64'))));

describe('record, lint, replay and certify', () => {
  let upstream: string;

  it('records two runs from a running server into new scenario files', async () => {
    upstream = (await serveMock([])).url;
    const a = await cli(['record', '--upstream', upstream, '--app', 'cedar_creek_briefing', '--session', 'cedar-1', '--message', 'Give me a recovery briefing for Cedar Creek Fire', '--out', join(recorded, 'cedar_creek_recorded.json')]);
    expect(a.stdout, a.stderr).toMatch(/recorded .*cedar_creek_recorded\.json: adk-python \(detected adk-python from float-seconds timestamps, uuid event ids, uvicorn headers\), HTTP 200, 5 frames, outcome complete/);
    expect(a.code).toBe(0);
    const b = await cli(['record', '--upstream', upstream, '--app', 'single_tool_call_streaming', '--message', 'How big was Cedar Creek?', '--streaming', '--normalize-ids', '--out', join(recorded, 'tool_call_recorded.json')]);
    expect(b.stdout, b.stderr).toMatch(/adk-js .*HTTP 200, 7 frames, outcome complete/);
    expect(b.code).toBe(0);
    expect(readdirSync(recorded).sort()).toEqual(['cedar_creek_recorded.json', 'tool_call_recorded.json']);
  });

  it('lints the recordings clean', async () => {
    const { code, stdout } = await cli(['lint-scenarios', recorded]);
    expect(stdout).toMatch(/2 scenario files in .*, no issues/);
    expect(code).toBe(0);
  });

  it('replays each recording through the mock byte for byte, with the recorded status and headers', async () => {
    const replay = (await serveMock(['--scenarios', recorded])).url;
    const original = await runScenario(upstream, 'cedar_creek_briefing', 'cedar-1', false);
    const replayed = await runScenario(replay, 'cedar_creek_recorded', 'any', false);
    const withoutDate = (h: Array<[string, string]>) => h.filter(([n]) => n.toLowerCase() !== 'date');
    expect(replayed.status).toBe(200);
    expect(withoutDate(replayed.rawHeaders)).toEqual(withoutDate(original.rawHeaders));
    expect(replayed.body.equals(original.body)).toBe(true);
    const file = JSON.parse(readFileSync(join(recorded, 'tool_call_recorded.json'), 'utf8')) as BytesScenario;
    const tool = await runScenario(replay, 'tool_call_recorded', 'any', true);
    expect(tool.body.equals(scriptedBody(file))).toBe(true);
    expect(tool.body.toString()).toContain('"timestamp":1795318500000');
  });

  it('records every run that passes through the recording proxy', async () => {
    const proxyDir = join(work, 'proxied');
    const proxy = await serveMock(['--record-from', upstream, '--record-dir', proxyDir]);
    const through = await runScenario(proxy.url, 'plain_text_streaming', 'p-1', true);
    expect(through.status).toBe(200);
    for (let i = 0; i < 100 && !/recorded .*plain_text_streaming_001\.json/.test(proxy.output()); i++) await new Promise((r) => setTimeout(r, 20));
    expect(proxy.output()).toMatch(/recorded .*plain_text_streaming_001\.json: adk-js, HTTP 200, 5 frames, complete/);
    const file = JSON.parse(readFileSync(join(proxyDir, 'plain_text_streaming_001.json'), 'utf8')) as BytesScenario;
    expect(scriptedBody(file).equals(through.body)).toBe(true);
    expect((await cli(['lint-scenarios', proxyDir])).code).toBe(0);
  });

  it('certifies an implementation against the recordings with a config file and a profile', async () => {
    const all = join(work, 'all');
    mkdirSync(all);
    for (const f of readdirSync(defaultScenariosDir).filter((n) => n.endsWith('.json'))) copyFileSync(join(defaultScenariosDir, f), join(all, f));
    for (const f of readdirSync(recorded)) copyFileSync(join(recorded, f), join(all, f));
    writeFileSync(join(work, 'adk-conformance.config.json'), JSON.stringify({
      target: { transformerModule: join(repo, 'harness', 'targets', 'transformer/reference.ts') },
      reporters: ['json', 'md'], out: 'reports', seed: 11, scenarios: { dir: 'all' },
      profile: { parts: ['transformer'], capabilities: { 'audit-metadata': false }, reasons: { 'audit-metadata': 'our agents emit no audit events' } },
    }));
    const { code, stdout, stderr } = await cli(['run'], work);
    expect(stdout, stderr).toMatch(/^verdict: fully compliant/m);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(work, 'reports', 'report.json'), 'utf8')) as { target: { description: string }; scenarios: Array<{ scenario: string; status: string }>; requirements: Array<{ id: string; status: string; reason?: string }> };
    expect(report.scenarios.filter((s) => /_recorded$/.test(s.scenario))).toEqual([
      expect.objectContaining({ scenario: 'cedar_creek_recorded', status: 'passed' }),
      expect.objectContaining({ scenario: 'tool_call_recorded', status: 'passed' }),
    ]);
    expect(report.requirements.find((r) => r.id === 'PL-CONF-001')).toMatchObject({ status: 'not-applicable', reason: 'profile: capability audit-metadata is declared false (our agents emit no audit events)' });
    expect(report.target.description).toContain('profile: parts transformer; audit-metadata=false');
    expect(readFileSync(join(work, 'reports', 'report.md'), 'utf8')).toContain('our agents emit no audit events');
  });

  it('keeps the Authorization header, the cookie and a secret in the body out of the recording', async () => {
    const file = join(work, 'secrets', 'secret_run.json');
    const { code } = await cli(['record', '--upstream', upstream, '--app', 'plain_text', '--message', 'deploy with key sk-proj-TOPSECRETTOPSECRET99 please',
      '--header', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.s3cr3t-sig', '--header', 'Cookie: session=chocolate-chip-7', '--out', file]);
    expect(code).toBe(0);
    const text = readFileSync(file, 'utf8');
    for (const secret of ['sk-proj-TOPSECRETTOPSECRET99', 'eyJhbGciOiJIUzI1NiJ9', 's3cr3t-sig', 'chocolate-chip-7']) expect(text, secret).not.toContain(secret);
    expect(text).toContain('deploy with key [REDACTED] please');
  });
});
