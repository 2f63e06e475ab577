/**
 * The per-event adapter (issue 31 §3): a team's `transformEvent(event, context)` (+ optional
 * `endOfStream`) certified as a transformer, the kit playing the client that decides the run's end.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import type { CheckOutcome } from '../../model.ts';
import { fromEventFunction } from './event-function.ts';
import { createTransformerRunner, loadTransformerModule } from './runner.ts';

const example = resolve('examples/adapters/per-event-transformer.ts');
const dir = mkdtempSync(join(tmpdir(), 'event-function-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fromEventFunction', () => {
  it('gives the function each ADK event and error frame as an object, with a per-run context; [DONE] and non-JSON lines are not its business', () => {
    const seen: Array<{ event: unknown; index: number; run: unknown }> = [];
    const emitted: unknown[] = [];
    const factory = fromEventFunction((event, context) => {
      seen.push({ event, index: context.index, run: context.run });
      return event.author === 'a' ? [{ n: 1 }, null, { n: 2 }] : null;
    });
    const t = factory({ onEvent: (e) => emitted.push(e), idleMs: 10_000, sessionId: 's1' });
    t.push('{"author":"a","content":{"parts":[{"text":"hi"}]},"partial":true}');
    t.push('not json');
    t.push('{"error":"boom"}');
    t.push('[DONE]');
    t.dispose?.();
    expect(seen.map((s) => s.index)).toEqual([0, 1]);
    expect(seen[1]?.event).toEqual({ error: 'boom' });
    expect(seen[0]?.run).toBe(seen[1]?.run);
    expect(emitted).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('calls endOfStream exactly once, with the reason the kit decided: eof, an error frame, the idle window', async () => {
    const reasons: string[] = [];
    const factory = fromEventFunction(() => null, (context) => { reasons.push(context.reason); return { type: 'COMPLETE' }; });
    const out: unknown[] = [];
    const eof = factory({ onEvent: (e) => out.push(e), idleMs: 10_000 });
    eof.push('{"author":"a","content":{"parts":[{"text":"x"}]},"partial":true}');
    eof.end();
    eof.end();
    const error = factory({ onEvent: (e) => out.push(e), idleMs: 10_000 });
    error.push('{"error":"boom"}');
    error.end();
    const idle = factory({ onEvent: (e) => out.push(e), idleMs: 50 });
    idle.push('{"author":"a","content":{"parts":[{"text":"x"}]},"partial":true}');
    await new Promise((r) => setTimeout(r, 300));
    idle.end();
    expect(reasons).toEqual(['eof', 'error-frame', 'idle']);
    expect(out).toHaveLength(3);
  });
});

describe('a per-event module certified through --transformer-module', () => {
  let mock: RunningMock;
  const { scenarios } = loadScenarios();
  beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
  afterAll(async () => { await mock.close(); });

  async function certify(path: string, ids: string[]): Promise<CheckOutcome[]> {
    const runner = createTransformerRunner({ module: path }, { idleMs: 300, toleranceMs: 600 });
    const env = { mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 20_000 };
    await runner.start?.(env);
    try {
      const out: CheckOutcome[] = [];
      for (const id of ids) {
        const scenario = scenarios.find((s) => s.id === id);
        if (!scenario) throw new Error(`scenario ${id} is missing`);
        out.push(...(await runner.runScenario(scenario, { ...env, signal: new AbortController().signal })).outcomes);
      }
      return out;
    } finally {
      await runner.stop?.();
    }
  }

  it('the example (the reference engine behind transformEvent/endOfStream) passes every requirement the runs exercise', async () => {
    expect(typeof await loadTransformerModule(example)).toBe('function');
    const outcomes = await certify(example, ['cedar_creek_briefing', 'missing_done_hold_open', 'error_frame_adk_python']);
    expect(outcomes.filter((o) => o.status !== 'passed').map((o) => `${o.requirement}:${o.status}`)).toEqual([]);
    expect(outcomes.some((o) => o.requirement === 'ABE-TERM-001' && o.status === 'passed')).toBe(true);
  });

  it('the same function without its endOfStream never emits the terminal event: ABE-TERM-001 fails', async () => {
    const path = join(dir, 'no-end.ts');
    writeFileSync(path, `export { transformEvent } from ${JSON.stringify(example)};\n`);
    const outcomes = await certify(path, ['plain_text']);
    expect(outcomes.filter((o) => o.requirement === 'ABE-TERM-001').flatMap((o) => o.findings.map((f) => f.code))).toContain('terminal-missing');
  });
});
