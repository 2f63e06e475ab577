/**
 * The servers the HTTP benchmarks talk to, each in its own process, started the way a user
 * starts them: the mock and the gateway through the `adk-conformance` CLI, the plain baseline
 * from bench/children/plain-server.ts with the plans the mock itself renders.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { render } from '../../mock-adk/core/render.ts';
import { renderDialect } from '../../mock-adk/server/mock-state.ts';
import { benchSession, type ScenarioFolder } from './bench-scenarios.ts';
import { repoRoot, spawnServer, tsxArgs, type RunningChild } from './children.ts';
import { compileChild } from './compiled.ts';

const cli = join(repoRoot, 'cli', 'main.ts');

/** `adk-conformance mock --port 0 --scenarios DIR`, with the bench session created for every app. */
export async function startMockChild(folder: ScenarioFolder, nodeFlags: readonly string[] = [], compiled = false): Promise<RunningChild> {
  // Compiled: as the published package runs it (bench/children/mock-arm.ts, bench/lib/compiled.ts).
  const args = compiled ? [...nodeFlags, compileChild('bench/children/mock-arm.ts'), '--port', '0', '--scenarios', folder.dir] : tsxArgs(cli, ['mock', '--port', '0', '--scenarios', folder.dir], nodeFlags);
  const mock = await spawnServer({ args });
  try {
    for (const id of folder.ids) await createSession(mock.url, id);
  } catch (error) {
    await mock.stop();
    throw error;
  }
  return mock;
}

/** The plain node:http baseline serving the mock's own rendering of every scenario in `folder`. */
export async function startPlainChild(folder: ScenarioFolder, compiled = false): Promise<RunningChild> {
  const plans: Record<string, unknown> = {};
  for (const scenario of folder.scenarios) {
    // As the mock renders a /run_sse request with streaming: true for the bench session.
    const plan = render(scenario, { dialect: renderDialect(scenario, 'adk-js'), streaming: true, appName: scenario.id, ...benchSession });
    plans[scenario.id] = { status: plan.status, headers: plan.headers, chunks: plan.chunks.map((c) => ({ base64: Buffer.from(c.bytes).toString('base64'), delayMs: c.delayMs })) };
  }
  const file = join(folder.dir, 'plain-plans.json.txt');
  writeFileSync(file, JSON.stringify(plans));
  return spawnServer({ args: compiled ? [compileChild('bench/children/plain-server.ts'), file] : tsxArgs(join(repoRoot, 'bench', 'children', 'plain-server.ts'), [file]) });
}

/** bench/children/plain-proxy.ts in front of `upstreamUrl`: the floor for any passthrough. */
export function startPlainProxyChild(upstreamUrl: string): Promise<RunningChild> {
  return spawnServer({ args: tsxArgs(join(repoRoot, 'bench', 'children', 'plain-proxy.ts'), [upstreamUrl]) });
}

/** A development secret for the benchmark gateway (HS256 needs at least 32 bytes). */
const jwtSecret = 'adk-conformance-benchmark-secret-0123456789';

/** `adk-conformance gateway` in front of `upstreamUrl`, JWT on (its default), and a token for it. */
export type ChildOptions = { nodeFlags?: readonly string[]; preload?: readonly string[]; env?: Record<string, string> };

export async function startGatewayChild(upstreamUrl: string, options: ChildOptions = {}): Promise<RunningChild & { token: string }> {
  const gateway = await spawnServer({
    args: tsxArgs(cli, ['gateway', '--port', '0', '--upstream', upstreamUrl, '--enable-canonical'], options.nodeFlags, options.preload),
    env: { JWT_SECRET: jwtSecret, ALLOW_UNAUTHENTICATED_SSE: 'false', ...options.env },
  });
  const token = await new SignJWT({ sub: 'bench' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('2h').sign(new TextEncoder().encode(jwtSecret));
  return { ...gateway, token };
}

export function createSession(baseUrl: string, appName: string): Promise<void> {
  const url = new URL(`/apps/${appName}/users/${benchSession.userId}/sessions/${benchSession.sessionId}`, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': '2' } }, (res) => {
      res.resume();
      // 400/409: the session exists already, which is all a run needs.
      res.on('end', () => (res.statusCode === 200 || res.statusCode === 400 || res.statusCode === 409 ? resolve() : reject(new Error(`creating the bench session for '${appName}' on ${baseUrl} answered HTTP ${res.statusCode}`))));
    });
    req.on('error', (error) => reject(new Error(`creating the bench session on ${baseUrl}: ${error.message}`)));
    req.end('{}');
  });
}

/** GET a JSON document (the mock's /_mock/streams, the gateway's /_gateway/stats). */
export function getJson(baseUrl: string, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http.get(new URL(path, baseUrl), { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (t: string) => { text += t; });
      res.on('end', () => { try { resolve(JSON.parse(text)); } catch (error) { reject(new Error(`GET ${path} on ${baseUrl} answered HTTP ${res.statusCode} with no JSON: ${(error as Error).message}`)); } });
    }).on('error', reject);
  });
}
