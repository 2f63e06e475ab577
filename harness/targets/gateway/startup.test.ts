/**
 * Start-up is never behaviour (issue 28 §2, §3): the readiness bound is the runner's option
 * (--startup-timeout), an overrun is reported timed out with the bound and the flag, how long each
 * instance took is reported, and a gateway that never listens leaves GW-MEM-002 untested, never
 * passed. The memory probe's runs, warm-up included, end within their bound.
 */
import http from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { checkStreamRun } from '../../checks/gateway/index.ts';
import { run as runOf, script, streamed } from '../../checks/gateway/test-fixture.ts';
import { runConformance } from '../../engine.ts';
import type { RunResult } from '../../model.ts';
import { requirements } from '../../requirements/index.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { createGatewayRunner } from './runner.ts';
import type { GatewayLauncher } from './instances.ts';
import { streamRequirementIds } from './scenarios.ts';
import type { PartRunner } from '../types.ts';

const { scenarios } = loadScenarios();
let mock: RunningMock;
beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

function certify(runner: PartRunner, grep: string[], selected = scenarios.filter((s) => s.id === 'plain_text')): Promise<RunResult> {
  return runConformance({
    runners: [runner], scenarios: selected, requirements: [...requirements.values()], mutantKills: {}, mockUrl: mock.url, grep,
    gate: { level: 'may', untestedFails: true }, seed: 1, scenarioTimeoutMs: 15_000, replayBase: 'npx adk-conformance run', targetDescription: 'test', version: 'test',
  });
}

function running(command: string): string[] {
  return readdirSync('/proc').filter((e) => /^\d+$/.test(e)).filter((pid) => {
    try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') === command; } catch { return false; }
  });
}

/** A gateway that answers every run after `delayMs`, with the test process's RSS as its memory. */
function slowGateway(delayMs: number): GatewayLauncher {
  return async (env) => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.end('data: {}\n\n'); }, delayMs));
    });
    const port = Number(env.PORT);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const stop = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
    return { ok: true, instance: { url: `http://127.0.0.1:${port}`, port, rss: () => process.memoryUsage().rss, gone: () => undefined, stop } };
  };
}

describe('a gateway that never listens (run --gateway-cmd "sleep 600" --grep GW-MEM-002)', () => {
  it('leaves GW-MEM-002 untested, timed out with the readiness bound and the flag, and reports the start-up', async () => {
    const runner = createGatewayRunner({ command: 'sleep 600.25' }, { reference: false, readyMs: 1000 });
    const result = await certify(runner, ['GW-MEM-002']);
    const memory = result.requirements.find((r) => r.id === 'GW-MEM-002');
    expect(memory?.status).toBe('untested');
    expect(memory?.status).not.toBe('passed');
    expect(memory?.reason).toMatch(/^timed out: the main gateway \(`sleep 600\.25`\) did not accept a TCP connection on 127\.0\.0\.1:\d+ within 1000 ms \(it must listen on \$PORT; the readiness bound is 1 s: a slow start-up gets more with --startup-timeout SECONDS/);
    // No scenario claims a requirement only a probe measures: the probe is the run's only job.
    expect(result.scenarios.map((s) => s.scenario)).toEqual(['probe:memory']);
    expect(runner.startups?.()).toEqual([{ part: 'gateway', instance: 'main', boundMs: 1000, outcome: 'timed-out' }]);
    // certify.ts puts the start-ups in the report: the Markdown report says it with the flag.
    expect(renderMarkdown({ ...result, startup: runner.startups?.() ?? [] })).toContain('> start-up (not counted as behaviour; readiness bound 1.0 s, --startup-timeout SECONDS raises it): gateway main timed out (not ready within 1.0 s).');
    expect(running('sleep 600.25')).toEqual([]);
  }, 30_000);
});

describe('start-up', () => {
  it('waits for every instance before any job, and reports how long each took against its bound', async () => {
    const runner = createGatewayRunner({ command: 'unused' }, { reference: false, readyMs: 7000, launch: slowGateway(0), prestart: ['main', 'alt'] });
    await runner.start?.({ mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 5000, probes: [] });
    try {
      const startups = runner.startups?.() ?? [];
      expect(startups.map((s) => [s.instance, s.outcome, s.boundMs])).toEqual([['main', 'ready', 7000], ['alt', 'ready', 7000]]);
      for (const s of startups) expect(s.readyMs).toBeGreaterThanOrEqual(0);
    } finally {
      await runner.stop?.();
    }
  });

  it('lists every requirement a scenario run can report among those a failed run leaves untested', () => {
    const ids = new Set<string>(streamRequirementIds);
    const runs = [
      runOf(script('data: {}\n\n'), streamed(['data: {}\n\n'])),
      runOf(script('data: {}\n\ndata: {"a', { end: 'reset' }), streamed(['data: {}\n\ndata: {"a'])),
      runOf(script('', { status: 500 }), streamed(['data: {"error": "ADK upstream error: 500", "status_code": 500, "detail": "x", "timestamp": 1729350000.5}\n\n'])),
      runOf(script('data: {}\n\n'), streamed(['data: {}\n\n']), { endpoint: '/run_sse_enhanced' }),
    ];
    for (const r of runs) expect(checkStreamRun(r).map((o) => o.requirement).filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe('the memory probe\'s bound covers its warm-up', () => {
  it('reports a warm-up the bound cut short as timed out, with the bound and the flag, never as a pass', async () => {
    const started = performance.now();
    const runner = createGatewayRunner({ command: 'unused' }, { reference: false, launch: slowGateway(40), prestart: ['main', 'memory'], memory: { maxMs: 2000 } });
    const result = await certify(runner, ['GW-MEM-002']);
    const memory = result.requirements.find((r) => r.id === 'GW-MEM-002');
    expect(memory?.status).toBe('untested');
    expect(memory?.reason).toMatch(/^timed out: the memory probe's warm-up had done \d+ of its 1000 runs when the memory runs' bound of 2 s ran out .*--timeout-ms/);
    expect(performance.now() - started).toBeLessThan(12_000);
  }, 30_000);
});
