/**
 * A proxy whose frontend uses its own cookie and header names (issue 31 §3): declared with
 * --auth-cookie / --csrf-cookie / --csrf-header, it is judged by them; undeclared, the harness's
 * seed-004 names reach a proxy that reads others, and the auth and CSRF requirements fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { runConformance } from '../../engine.ts';
import { proxyRequirements } from '../../requirements/proxy.ts';
import { inProcessProxyLauncher } from '../../mutants/proxy/index.ts';
import { parseTargetSpec as parseTarget } from '../spec.ts';
import { createProxyRunner, type ProxyRunnerOptions } from './runner.ts';
import type { GatewayLauncher } from '../gateway/instances.ts';

const { scenarios } = loadScenarios();
let mock: RunningMock;
beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

/** The reference proxy, in process, hard-wired to Angular's names whatever its environment says. */
const angular: GatewayLauncher = (env, bounds) => inProcessProxyLauncher(undefined)({ ...env, AUTH_COOKIE_NAME: 'session', CSRF_COOKIE_NAME: 'XSRF-TOKEN', CSRF_HEADER_NAME: 'X-XSRF-TOKEN' }, bounds);

async function certify(options: ProxyRunnerOptions) {
  const runner = createProxyRunner({ command: 'in-process' }, { launcher: angular, ...options });
  const result = await runConformance({
    runners: [runner], scenarios: scenarios.filter((s) => s.id === 'plain_text'), requirements: proxyRequirements, mutantKills: {}, mockUrl: mock.url,
    gate: { level: 'must', untestedFails: true }, seed: 1, scenarioTimeoutMs: 15_000,
    replayBase: 'npx adk-conformance run --proxy-cmd in-process', targetDescription: runner.description, version: 'test',
  });
  return Object.fromEntries(result.requirements.map((q) => [q.id, q.status]));
}

describe('proxy cookie and header names', () => {
  it('declared, a proxy reading its own names is judged by them: PRX-AUTH-001 and PRX-CSRF-001 pass', async () => {
    const status = await certify({ names: { authCookie: 'session', csrfCookie: 'XSRF-TOKEN', csrfHeader: 'X-XSRF-TOKEN' } });
    expect(status['PRX-AUTH-001']).toBe('passed');
    expect(status['PRX-CSRF-001']).toBe('passed');
  });

  it('undeclared, the same proxy never finds the token where seed 004 puts it: PRX-AUTH-001 fails', async () => {
    const status = await certify({});
    expect(status['PRX-AUTH-001']).toBe('failed');
  });

  it('the flags go with a proxy only, and take names', () => {
    expect(parseTarget({ 'proxy-cmd': 'node p.js', 'csrf-header': 'X-XSRF-TOKEN' }).proxyNames).toEqual({ csrfHeader: 'X-XSRF-TOKEN' });
    expect(() => parseTarget({ 'transformer-cmd': 'x', 'auth-cookie': 'session' })).toThrow(/goes with --proxy URL or --proxy-cmd/);
    expect(() => parseTarget({ 'proxy-cmd': 'node p.js', 'csrf-cookie': 'a b' })).toThrow(/--csrf-cookie takes a cookie or header name/);
  });
});
