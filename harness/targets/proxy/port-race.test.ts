/**
 * The harness picks a free port and hands it to the proxy; another process can take it first. That
 * race is the harness's, not the proxy's: the in-process reference proxy that meets EADDRINUSE says
 * so (portTaken), and the runner starts it once more on another port (a gateway mutant's
 * certification was untested whole for it: the clean-clone CI of 3ffc416).
 */
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { runConformance } from '../../engine.ts';
import { proxyRequirements } from '../../requirements/proxy.ts';
import { inProcessProxyLauncher } from '../../mutants/proxy/index.ts';
import { inProcessLauncher } from '../../mutants/gateway/in-process.ts';
import { createProxyRunner } from './runner.ts';
import type { GatewayLauncher } from '../gateway/instances.ts';

const { scenarios } = loadScenarios();
let mock: RunningMock;
let squatter: net.Server;
let takenPort = 0;
beforeAll(async () => {
  mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false });
  squatter = net.createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  takenPort = (squatter.address() as AddressInfo).port;
});
afterAll(async () => {
  await mock.close();
  await new Promise((resolve) => squatter.close(resolve));
});

describe('a free port another process took first', () => {
  it('the in-process launchers say the port was taken', async () => {
    const proxy = await inProcessProxyLauncher(undefined)({ PORT: String(takenPort), BACKEND_URL: 'http://127.0.0.1:1', AUTH_COOKIE_NAME: 'auth_token', CSRF_COOKIE_NAME: 'csrf_token', CSRF_HEADER_NAME: 'X-CSRF-Token' }, { readyMs: 5000, label: 'proxy' });
    expect(proxy).toMatchObject({ ok: false, portTaken: true });
    const gateway = await inProcessLauncher('none')({ PORT: String(takenPort), ADK_UPSTREAM_URL: mock.url, ENABLE_ADK_CANONICAL_STREAM: 'true', ALLOW_UNAUTHENTICATED_SSE: 'true' }, { readyMs: 5000, label: 'main' });
    expect(gateway, JSON.stringify(gateway)).toMatchObject({ ok: false, portTaken: true });
  });

  it('the proxy runner starts the proxy once more on another port, and the run is judged', async () => {
    const ports: number[] = [];
    // The first start is given the squatted port, whatever the harness picked.
    const racing: GatewayLauncher = (env, bounds) => {
      ports.push(Number(env.PORT));
      return inProcessProxyLauncher(undefined)({ ...env, PORT: ports.length === 1 ? String(takenPort) : String(env.PORT) }, bounds);
    };
    const runner = createProxyRunner({ command: 'in-process' }, { launcher: racing });
    const result = await runConformance({
      runners: [runner], scenarios: scenarios.filter((s) => s.id === 'plain_text'), requirements: proxyRequirements, mutantKills: {}, mockUrl: mock.url,
      gate: { level: 'must', untestedFails: true }, seed: 1, scenarioTimeoutMs: 15_000,
      replayBase: 'npx adk-conformance run --proxy-cmd in-process', targetDescription: runner.description, version: 'test',
    });
    expect(ports).toHaveLength(2);
    expect(result.requirements.find((q) => q.id === 'PRX-AUTH-001')?.status).toBe('passed');
  });
});
