/**
 * The gateway runner end to end, with real sockets and real child processes: URL mode against a
 * reference gateway started in this process, and command mode against gateways that fail to
 * start, never listen, or crash mid-run (each an untested verdict with the reason, never a crash
 * of the harness). The reference's and the mutants' full certifications are in
 * harness/mutants/gateway.mutants.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { startGateway, type RunningGateway } from '../../../reference-impl/gateway/start.ts';
import { runConformance } from '../../engine.ts';
import type { RunResult } from '../../model.ts';
import { requirements } from '../../requirements/index.ts';
import { createGatewayRunner, gatewayApplies, slowSelected, urlModeUnreachable, type GatewayRunnerOptions } from './runner.ts';
import type { PartRunner } from '../types.ts';
import type { GatewayLauncher } from './instances.ts';

const { scenarios } = loadScenarios();
const pick = (...ids: string[]) => scenarios.filter((s) => ids.includes(s.id));
const gatewayIds = [...requirements.values()].filter((r) => r.part === 'gateway').map((r) => r.id);
const secret = 'a-harness-test-secret-of-32-bytes!!';

let mock: RunningMock;
let gateway: RunningGateway;

beforeAll(async () => {
  mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false });
  gateway = await startGateway({ config: { upstreamUrl: mock.url, canonicalStreamEnabled: true, auth: { mode: 'jwt', secret, clockToleranceSec: 5 } } });
});

afterAll(async () => {
  await gateway.close();
  await mock.close();
});

function certify(runner: PartRunner, selected = pick('plain_text')): Promise<RunResult> {
  return runConformance({
    runners: [runner], scenarios: selected, requirements: [...requirements.values()], mutantKills: {}, mockUrl: mock.url,
    gate: { level: 'may', untestedFails: true }, seed: 1, scenarioTimeoutMs: 15_000, replayBase: 'npx adk-conformance run', targetDescription: 'test', version: 'test',
  });
}

const byStatus = (result: RunResult) => {
  const out: Record<string, string[]> = {};
  for (const r of result.requirements.filter((x) => x.part === 'gateway')) (out[r.status] ??= []).push(r.id);
  return out;
};

/** Processes whose command line is exactly `command` (Linux /proc). */
function running(command: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try { if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') === command) found.push(pid); } catch { /* it ended */ }
  }
  return found;
}

const commandOptions: GatewayRunnerOptions = { reference: false, readyMs: 3000, prestart: ['main'], cookieProxy: true, enhancedEndpoint: true };

describe('gatewayApplies', () => {
  it('takes the streaming endpoints and leaves out the Anthropic turns and slow scenarios', () => {
    const applied = new Set(scenarios.filter(gatewayApplies).map((s) => s.id));
    expect(applied.has('audit_data_sources')).toBe(true);
    expect(applied.has('session_not_found')).toBe(true);
    expect(applied.has('index_reuse_turn')).toBe(false);
    expect(applied.has('framing_idle_silence')).toBe(false);
  });

  it('runs a slow scenario that --grep selected by its id, family or tag, and not in a full run', async () => {
    const slow = pick('framing_idle_silence')[0];
    if (!slow) throw new Error('framing_idle_silence is not in the corpus');
    expect(slowSelected(slow, [])).toBe(false);
    expect(slowSelected(slow, ['framing_idle_silence'])).toBe(true);
    expect(slowSelected(slow, ['FRAMING'])).toBe(true);
    expect(slowSelected(slow, ['slow'])).toBe(true);
    expect(slowSelected(slow, ['plain_text'])).toBe(false);
    const runner = createGatewayRunner({ url: 'http://127.0.0.1:9' }, { reference: false });
    await runner.start?.({ mockUrl: 'http://127.0.0.1:9', seed: 1, scenarioTimeoutMs: 1000, grep: ['framing_idle_silence'], probes: [] });
    try {
      expect(runner.applies(slow)).toBe(true);
    } finally {
      await runner.stop?.();
    }
  });
});

describe('the instances a gateway command is started as', () => {
  /** Starts the runner on a launcher that only records which instances it was asked for. */
  async function launchedFor(probes: string[] | undefined): Promise<string[]> {
    const kinds: string[] = [];
    const launch: GatewayLauncher = async (_env, { label }) => {
      kinds.push(label);
      return { ok: true, instance: { url: 'http://127.0.0.1:9', port: 9, rss: () => 0, gone: () => undefined, stop: async () => {} } };
    };
    const runner = createGatewayRunner({ command: 'unused' }, { reference: false, launch });
    await runner.start?.({ mockUrl: 'http://127.0.0.1:9', seed: 1, scenarioTimeoutMs: 1000, grep: [], ...(probes ? { probes } : {}) });
    await runner.stop?.();
    return kinds.sort();
  }

  it('are all six in a full run, only main for a --grep of scenarios, and main with what the selected probes use', async () => {
    expect(await launchedFor(undefined)).toEqual(['alt', 'flag-off', 'local-dev', 'main', 'memory', 'refused']);
    expect(await launchedFor([])).toEqual(['main']);
    expect(await launchedFor(['flag', 'errors', 'forwarding'])).toEqual(['flag-off', 'main', 'refused']);
    expect(await launchedFor(['auth', 'csrf-host'])).toEqual(['alt', 'local-dev', 'main']);
  });
});

describe('URL mode', () => {
  it('certifies a running gateway and reports what needs --gateway-cmd as untested with the flag to use', async () => {
    // The reference gateway serves the cookie proxy and /run_sse_enhanced: declared, they are judged.
    const runner = createGatewayRunner({ url: gateway.url }, { reference: false, jwtSecret: secret, cookieProxy: true, enhancedEndpoint: true });
    const result = await certify(runner, pick('plain_text', 'audit_data_sources', 'stream_cut_while_partial', 'session_not_found', 'missing_done_hold_open'));
    const statuses = byStatus(result);
    expect(statuses.failed ?? []).toEqual([]);
    // Without a silence scenario in the selection nothing exercises GW-TIMEOUT-002.
    expect(new Set(statuses.untested)).toEqual(new Set([...Object.keys(urlModeUnreachable), 'GW-TIMEOUT-002']));
    const flag = result.requirements.find((r) => r.id === 'GW-FLAG-001');
    expect(flag?.reason).toMatch(/--gateway-cmd/);
  }, 60_000);

  it('names every probe by a requirement tag, so the replay line --grep <probe> selects it', () => {
    const tags = new Set([...requirements.values()].flatMap((r) => r.tags));
    const runner = createGatewayRunner({ command: 'true' }, { reference: false });
    expect(runner.probes?.map((p) => p.id).filter((id) => !tags.has(id))).toEqual([]);
  });

  it('reports the auth requirements as unreachable without the gateway\'s key', () => {
    const runner = createGatewayRunner({ url: gateway.url }, { reference: false, cookieProxy: true });
    expect(Object.keys(runner.unreachable ?? {})).toEqual(expect.arrayContaining(['GW-AUTH-001', 'GW-AUTH-004', 'GW-PROXY-002']));
    expect(runner.probes?.map((p) => p.id)).not.toContain('auth');
  });
});

describe('command mode with a broken gateway', () => {
  it('reports every requirement untested, with the exit code and stderr, when the gateway exits at once', async () => {
    const result = await certify(createGatewayRunner({ command: 'echo "JWT_SECRET is unreadable" >&2; exit 3' }, commandOptions));
    expect(byStatus(result)).toEqual({ untested: gatewayIds });
    expect(result.requirements.find((r) => r.id === 'GW-PASS-001')?.reason).toMatch(/exited with code 3.*JWT_SECRET is unreadable/);
  }, 60_000);

  it('reports every requirement untested when the gateway never listens on $PORT, and stops it', async () => {
    const result = await certify(createGatewayRunner({ command: 'sleep 31.25' }, commandOptions));
    expect(byStatus(result)).toEqual({ untested: gatewayIds });
    expect(result.requirements[0]?.reason).toMatch(/did not accept a TCP connection on 127\.0\.0\.1:\d+ within 3000 ms/);
    expect(running('sleep 31.25')).toEqual([]);
  }, 60_000);

  it('reports every requirement untested, with the exit, when the gateway crashes on its first request', async () => {
    const crash = `node -e "require('http').createServer(() => process.exit(7)).listen(Number(process.env.PORT), '127.0.0.1')"`;
    const result = await certify(createGatewayRunner({ command: crash }, commandOptions), pick('plain_text', 'plain_text_streaming', 'single_tool_call'));
    expect(byStatus(result)).toEqual({ untested: gatewayIds });
    expect(result.requirements.find((r) => r.id === 'GW-PASS-001')?.reason).toMatch(/exited with code 7/);
  }, 60_000);
});

describe('the V8 inspector of the memory instance', () => {
  it('is absent when nothing answers on its port, and the probe then measures RSS', async () => {
    const { openInspector } = await import('./inspector.ts');
    const { freePort } = await import('./instances.ts');
    expect(await openInspector(await freePort(), 1, 500)).toBeUndefined();
  });
});
