/**
 * A gateway's shape is asked, not assumed (issue 28 §1): a gateway serving one fixed app passes
 * the legacy route and the stream once it declares the app (--app-name); a gateway without the
 * cookie proxy or /run_sse_enhanced, which seeds 004 and 000 put elsewhere, is not failed for
 * them by default: they are not applicable, with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { inProcessLauncher } from '../../mutants/gateway/in-process.ts';
import { runConformance } from '../../engine.ts';
import type { RunResult } from '../../model.ts';
import { requirements } from '../../requirements/index.ts';
import { createGatewayRunner, undeclaredReasons, type GatewayRunnerOptions } from './runner.ts';
import { applyRunnerScope } from '../runner-scope.ts';
import { parseGatewayShape } from '../spec.ts';
import type { PartRunner } from '../types.ts';

const { scenarios } = loadScenarios();
const pick = (...ids: string[]) => scenarios.filter((s) => ids.includes(s.id));
let mock: RunningMock;
beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

async function certify(runner: PartRunner, grep: string[], selected: string[]): Promise<RunResult> {
  const result = await runConformance({
    runners: [runner], scenarios: pick(...selected), requirements: [...requirements.values()], mutantKills: {}, mockUrl: mock.url, grep,
    gate: { level: 'may', untestedFails: true }, seed: 1, scenarioTimeoutMs: 15_000, replayBase: 'npx adk-conformance run', targetDescription: 'test', version: 'test',
  });
  // As certify.ts does: what the runner says is outside the gateway's declared shape.
  return applyRunnerScope(result, [runner]);
}

const status = (result: RunResult) => Object.fromEntries(result.requirements.filter((r) => r.part === 'gateway' && r.status !== 'not-applicable').map((r) => [r.id, r.status]));
const variant = (name: string, more: Partial<GatewayRunnerOptions> = {}) => createGatewayRunner({ command: `variant ${name}` }, { reference: false, launch: inProcessLauncher(name), timingTimeoutMs: 2500, silenceMs: 1750, prestart: ['main'], ...more });
const streamAndLegacy = ['GW-LEGACY-001', 'GW-LEGACY-002', 'GW-PASS-001', 'GW-PASS-002', 'GW-PASS-004', 'GW-REQ-001', 'GW-REQ-002'];

describe('a gateway that serves one fixed app (seed 004: appName "e.g., vana")', () => {
  it('passes the legacy route and the stream once it declares the app with --app-name', async () => {
    const result = await certify(variant('fixed-app-vana', { appName: 'vana' }), streamAndLegacy, ['plain_text', 'plain_text_streaming', 'unknown_app']);
    expect(status(result)).toEqual(Object.fromEntries(streamAndLegacy.map((id) => [id, 'passed'])));
  }, 60_000);

  it('fails them when the harness names each run after its scenario (what --app-name fixes)', async () => {
    const result = await certify(variant('fixed-app-vana'), ['GW-LEGACY-001', 'GW-PASS-001'], ['plain_text']);
    expect(status(result)).toEqual({ 'GW-LEGACY-001': 'failed', 'GW-PASS-001': 'failed' });
  }, 60_000);
});

describe('a gateway without the cookie proxy or /run_sse_enhanced', () => {
  it('is not failed for them by default: GW-PROXY-002 and GW-ENH-001 are not applicable, with the seeds\' reasons', async () => {
    const result = await certify(variant('no-proxy-no-enhanced'), ['GW-PROXY-002', 'GW-ENH-001', 'GW-PASS-001', 'GW-AUTH-001'], ['plain_text', 'audit_data_sources']);
    expect(status(result)).toEqual({ 'GW-PASS-001': 'passed', 'GW-AUTH-001': 'passed' });
    const byId = new Map(result.requirements.map((r) => [r.id, r]));
    expect(byId.get('GW-PROXY-002')).toMatchObject({ status: 'not-applicable', reason: undeclaredReasons['GW-PROXY-002'] });
    expect(byId.get('GW-ENH-001')).toMatchObject({ status: 'not-applicable', reason: undeclaredReasons['GW-ENH-001'] });
    expect(byId.get('GW-PROXY-002')?.reason).toMatch(/seed 004 puts it in the frontend.*--gateway-serves cookie-proxy/);
    expect(byId.get('GW-ENH-001')?.reason).toMatch(/seed 000 \(§2\.2B\) puts that endpoint in the ADK service's main\.py.*--gateway-serves run-sse-enhanced/);
    // The enhanced scenario was not sent to a gateway that does not declare the endpoint.
    expect(result.scenarios.map((s) => s.scenario)).not.toContain('audit_data_sources');
  }, 60_000);

  it('gives no verdict (could not evaluate) when a --grep selects only what the gateway does not declare', async () => {
    await expect(certify(variant('no-proxy-no-enhanced'), ['GW-PROXY-002'], ['plain_text'])).rejects.toThrow(/every requirement this run selected is outside the target's contract: GW-PROXY-002 \(the gateway does not declare the cookie-to-bearer proxy/);
  }, 60_000);

  it('is judged on them once declared: the same gateway then fails both', async () => {
    const result = await certify(variant('no-proxy-no-enhanced', { cookieProxy: true, enhancedEndpoint: true }), ['GW-PROXY-002', 'GW-ENH-001'], ['plain_text', 'audit_data_sources']);
    expect(status(result)).toEqual({ 'GW-PROXY-002': 'failed', 'GW-ENH-001': 'failed' });
  }, 60_000);
});

describe('a gateway whose legacy routes stay in the existing app (seed 004: "Legacy endpoints remain available")', () => {
  it('is judged on them by default, and fails them when it answers 404', async () => {
    const result = await certify(variant('canonical-only'), ['GW-LEGACY-001', 'GW-LEGACY-002', 'GW-PASS-001'], ['plain_text']);
    expect(status(result)).toEqual({ 'GW-LEGACY-001': 'failed', 'GW-LEGACY-002': 'untested', 'GW-PASS-001': 'passed' });
  }, 60_000);

  it('is not judged on them once it says so (--gateway-serves legacy-elsewhere): not applicable, with the seed\'s reason', async () => {
    const result = await certify(variant('canonical-only', { legacyRoutes: false }), ['GW-LEGACY-001', 'GW-LEGACY-002', 'GW-PASS-001'], ['plain_text']);
    expect(status(result)).toEqual({ 'GW-PASS-001': 'passed' });
    const byId = new Map(result.requirements.map((r) => [r.id, r]));
    for (const id of ['GW-LEGACY-001', 'GW-LEGACY-002'] as const) expect(byId.get(id)).toMatchObject({ status: 'not-applicable', reason: undeclaredReasons[id] });
    expect(byId.get('GW-LEGACY-001')?.reason).toMatch(/--gateway-serves legacy-elsewhere.*Legacy endpoints remain available/);
  }, 60_000);
});

describe('--app-name and --gateway-serves', () => {
  it('parse into the gateway\'s shape, and refuse what is not one, naming the nearest word', () => {
    expect(parseGatewayShape({})).toBeUndefined();
    expect(parseGatewayShape({ 'app-name': 'vana', 'gateway-serves': 'cookie-proxy,run-sse-enhanced' })).toEqual({ appName: 'vana', cookieProxy: true, enhancedEndpoint: true });
    expect(parseGatewayShape({ 'gateway-serves': 'legacy-elsewhere' })).toEqual({ legacyRoutes: false });
    expect(() => parseGatewayShape({ 'gateway-serves': 'cookie-prxy' })).toThrow(/did you mean 'cookie-proxy'/);
    expect(() => parseGatewayShape({ 'app-name': 'a/b' })).toThrow(/--app-name takes the one app name/);
  });
});
