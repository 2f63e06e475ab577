/**
 * The two adapters of docs/session-protocol.md wrap a per-line function once and serve it in both
 * forms: the same runs give the same lines whether each has a fresh process or all share one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runChild, type ChildScript } from '../../harness/child.ts';
import { openSessionPool } from '../../harness/session.ts';
import { createTransformerRunner } from '../../harness/targets/transformer/runner.ts';
import { createNormalizerRunner } from '../../harness/targets/normalizer/runner.ts';
import { startMock } from '../../mock-adk/server/start.ts';
import { loadScenarios } from '../../scenarios/loader.ts';

const script = (tag: string): ChildScript => ({ command: 'python3 examples/session-adapter/uppercase.py', env: { TAG: tag }, input: [{ text: 'a' }, { text: 'b', delayMs: 5 }], timeoutMs: 10_000 });

describe('the Python adapter', () => {
  it('gives the same lines in the one-shot form and in one session process serving five runs at once', async () => {
    const oneShot = await Promise.all(['1', '2'].map((t) => runChild(script(t))));
    expect(oneShot.map((o) => o.lines.map((l) => l.text))).toEqual([['A1', 'B1', 'END1'], ['A2', 'B2', 'END2']]);
    const pool = openSessionPool({ command: 'python3 examples/session-adapter/uppercase.py', part: 'transformer', startupTimeoutMs: 10_000, runsPerProcess: 5 });
    try {
      expect(await pool.ready()).toMatchObject({ ok: true, implementation: { name: 'uppercase', language: 'python' } });
      const runs = await Promise.all(['1', '2', '3', '4', '5'].map((t) => pool.runChild(script(t))));
      expect(runs.map((o) => o.lines.map((l) => l.text))).toEqual(['1', '2', '3', '4', '5'].map((t) => [`A${t}`, `B${t}`, `END${t}`]));
      expect(runs.every((o) => o.exitCode === 0)).toBe(true);
      expect(pool.restarts()).toEqual([]);
    } finally { await pool.close(); }
  }, 30_000);
});

describe('the TypeScript adapter', () => {
  const { scenarios } = loadScenarios();
  const mock = startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false });
  afterAll(async () => { await (await mock).close(); });

  it('serves the reference transformer in the session form, passing what plain_text and a held-open run exercise', async () => {
    const { url } = await mock;
    // The session form asked for: its runs wait for the handshake. Left to find the form (auto), its first run starts
    // after 0.5 s as a one-shot run beside the probe, and `npx tsx` behind a loaded CI runner overran it in four
    // clean-clone CI runs (2026-11-30); what the early runs do is harness/targets/transformer/runner.test.ts's to test.
    const runner = createTransformerRunner({ command: 'npx tsx examples/session-adapter/reference-transformer.ts', protocol: 'session' }, { idleMs: 300, toleranceMs: 600 });
    const env = { mockUrl: url, seed: 1, scenarioTimeoutMs: 20_000 };
    await runner.start?.(env);
    try {
      for (const id of ['plain_text', 'missing_done_hold_open']) {
        const scenario = scenarios.find((s) => s.id === id);
        if (!scenario) throw new Error(`no scenario ${id}`);
        const result = await runner.runScenario(scenario, { ...env, signal: new AbortController().signal });
        expect(result.timeline.map((t) => t.summary).join('\n')).toContain('session form: reference-transformer 0.1.0 (typescript)');
        expect(result.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.requirement} ${o.findings[0]?.message}`), id).toEqual([]);
        expect(result.outcomes.some((o) => o.status === 'passed')).toBe(true);
      }
    } finally { await runner.stop?.(); }
  }, 60_000);

  it('serves the reference normaliser in the session form, passing what a turn with reused indices exercises', async () => {
    const { url } = await mock;
    const runner = createNormalizerRunner({ command: 'npx tsx examples/session-adapter/reference-normalizer.ts' }, { generatedTurns: 0 });
    const env = { mockUrl: url, seed: 1, scenarioTimeoutMs: 20_000 };
    await runner.start?.(env);
    try {
      const scenario = scenarios.find((s) => s.id === 'index_reuse_parallel_tool_uses');
      if (!scenario) throw new Error('no scenario index_reuse_parallel_tool_uses');
      const result = await runner.runScenario(scenario, { ...env, signal: new AbortController().signal });
      expect(result.timeline.map((t) => t.summary).join('\n')).toContain('session form: reference-normalizer 0.1.0 (typescript)');
      expect(result.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.requirement} ${o.findings[0]?.message}`)).toEqual([]);
      expect(result.outcomes.some((o) => o.status === 'passed')).toBe(true);
    } finally { await runner.stop?.(); }
  }, 60_000);
});
