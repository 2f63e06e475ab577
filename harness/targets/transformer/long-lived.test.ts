/**
 * ABE-ISO-001's orders (issue 30 §2 "Isolation"): every order runs in a new long-lived instance;
 * the two extremes (after 1,000 prior runs; 20 runs open at once) always run; a difference is
 * shrunk to the smallest order, which the finding names with the seed and a replay line. Run over
 * the reference module, the example Python transformer in the session form, and modules that break
 * only after hundreds of runs or only under load.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import type { ScenarioCheck } from '../types.ts';
import { createTransformerRunner, referenceTransformerModule, type TransformerTarget } from './runner.ts';
import { longLivedProbeId } from './long-lived.ts';
import { transformerMutants } from '../../mutants/transformer/index.ts';

let mock: RunningMock;
const dir = mkdtempSync(join(tmpdir(), 'adk-transformer-long-lived-'));

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios: loadScenarios().scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

async function probe(target: TransformerTarget, seed = 1): Promise<{ check: ScenarioCheck; seconds: number }> {
  const runner = createTransformerRunner(target, { idleMs: 300, memoryProbe: false });
  const env = { mockUrl: mock.url, seed, scenarioTimeoutMs: 30_000 };
  await runner.start?.(env);
  try {
    const p = runner.probes?.find((x) => x.id === longLivedProbeId);
    if (!p) throw new Error('the transformer runner has no long-lived probe');
    const t0 = performance.now();
    const check = await p.run({ ...env, signal: new AbortController().signal });
    return { check, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await runner.stop?.();
  }
}

const iso = (c: ScenarioCheck) => c.outcomes.filter((o) => o.requirement === 'ABE-ISO-001');
const corr = (c: ScenarioCheck) => c.outcomes.filter((o) => o.requirement === 'ABE-CORR-002');
const isoNote = (c: ScenarioCheck) => c.timeline.find((e) => e.summary.startsWith('isolation'))?.summary ?? '';

describe('the transformer long-lived probe: ABE-ISO-001 orders', () => {
  it('passes the reference module: the extremes (1,000 prior runs; 20 at once) and the drawn orders, each in a new instance', async () => {
    const { check, seconds } = await probe({ module: referenceTransformerModule });
    expect(iso(check).map((o) => o.status)).toEqual(['passed']);
    expect(isoNote(check)).toMatch(/^isolation \(one module instance\): 5 order\(s\) tried in [\d.]+ s \(\d+ prior and history runs in all\)/);
    expect(Number(/\((\d+) prior and history runs/.exec(isoNote(check))?.[1])).toBeGreaterThanOrEqual(1000);
    console.log(`reference module: ${seconds.toFixed(1)} s; ${isoNote(check)}`);
  }, 60_000);

  it('passes the example Python transformer in the session form', async () => {
    const { check, seconds } = await probe({ command: 'python3 examples/python-transformer/transformer.py' });
    expect(iso(check).map((o) => o.status)).toEqual(['passed']);
    expect(isoNote(check)).toMatch(/^isolation \(one session process\): 5 order\(s\) tried/);
    console.log(`python session form: ${seconds.toFixed(1)} s; ${isoNote(check)}`);
  }, 60_000);

  it('fails a module that degrades after 300 runs of its life, shrunk to the smallest prior history that shows it', async () => {
    // A cache of per-run state that fills at 300 runs and is never emptied: from then on the
    // transformer skips the THINKING briefing (a real failure mode of an unbounded-then-capped cache).
    const worn = join(dir, 'worn.ts');
    writeFileSync(worn, `import { createTransformer as reference } from ${JSON.stringify(referenceTransformerModule)};\nlet runs = 0;\nexport function createTransformer(o: Parameters<typeof reference>[0]) { const worn = ++runs > 300; return reference({ ...o, onEvent: (e) => { if (!(worn && (e as { state?: string }).state === 'THINKING')) o.onEvent(e); } }); }\n`);
    const { check, seconds } = await probe({ module: worn }, 5);
    const [o] = iso(check);
    expect(o?.status).toBe('failed');
    const message = o?.findings[0]?.message ?? '';
    // The smallest order: the target run 301st in its instance, so exactly 300 runs before it.
    expect(message).toMatch(/after 300 prior run\(s\) \(the probe's corpus in turn\) in a new long-lived instance/);
    expect(message).toMatch(/shrunk in \d+ step\(s\), seed 5; replay: npx adk-conformance run --transformer-module \S+ --grep probe:transformer-long-lived --seed 5\)/);
    console.log(`worn module: ${seconds.toFixed(1)} s; ${message}`);
  }, 90_000);

  it('fails the mutant whose per-run states run out under load, naming the runs open at once', async () => {
    const mutant = transformerMutants.find((m) => m.id === 'transformer-shared-state-under-load');
    const { check } = await probe(mutant?.target.transformer as TransformerTarget, 2);
    const [o] = iso(check);
    expect(o?.status).toBe('failed');
    expect(o?.findings[0]?.message).toMatch(/one of 1[3-9] open at once|one of 20 open at once/);
  }, 90_000);
});

describe('the transformer long-lived probe: ABE-CORR-002 over two sessions side by side', () => {
  it('passes the reference: a follow-up after a transfer and a long-running tool resumed later keep their session\'s correlation_id', async () => {
    const { check } = await probe({ module: referenceTransformerModule });
    expect(corr(check).map((o) => o.status)).toEqual(['passed']);
    const note = check.timeline.find((e) => e.summary.startsWith('sessions across turns'))?.summary ?? '';
    expect(note).toMatch(/turn 1 transfer_to_specialist .*turn 2 transfer_followup_same_session .*; session \S+: turn 1 long_running_tool_pending .*turn 2 long_running_tool_resumed/);
  }, 60_000);

  it('fails a transformer that correlates by invocation (changed across turns)', async () => {
    const mutant = transformerMutants.find((m) => m.id === 'transformer-correlation-per-invocation');
    const { check } = await probe(mutant?.target.transformer as TransformerTarget);
    expect(corr(check)[0]?.findings.map((f) => f.code)).toEqual(['correlation-changed-across-turns', 'correlation-changed-across-turns']);
  }, 60_000);

  it('runs the turns once more in a new instance when one was cut short, and judges them there', async () => {
    // The first run of each session throws on its first line, as if its process had been lost: that turn emits nothing.
    const flaky = join(dir, 'first-turn-lost.ts');
    writeFileSync(flaky, `import { existsSync, writeFileSync } from 'node:fs';\nimport { createTransformer as reference } from ${JSON.stringify(referenceTransformerModule)};\nexport function createTransformer(o: Parameters<typeof reference>[0]) {\n  const t = reference(o);\n  const seen = ${JSON.stringify(dir)} + '/seen-' + String(o.sessionId);\n  const lost = !existsSync(seen) && String(o.sessionId).startsWith('adk-conformance-thread-');\n  if (lost) writeFileSync(seen, '1');\n  return { ...t, push: (line: string) => { if (lost) throw new Error('its process was lost'); return t.push(line); } };\n}\n`);
    const { check } = await probe({ module: flaky });
    expect(corr(check).map((o) => [o.status, o.reason])).toEqual([['passed', undefined]]);
    expect(check.timeline.map((e) => e.summary).join('\n')).toMatch(/the turn 1 of session \S+ \(\w+\) threw \(.*its process was lost.*\); the turns ran again in a new instance/);
  }, 60_000);

  it('fails a transformer whose one correlation_id serves every session (shared across sessions)', async () => {
    const one = join(dir, 'one-thread.ts');
    writeFileSync(one, `import { createTransformer as reference } from ${JSON.stringify(referenceTransformerModule)};\nexport function createTransformer(o: Parameters<typeof reference>[0]) { return reference({ ...o, onEvent: (e) => o.onEvent({ ...(e as object), correlation_id: 'the-app' }) }); }\n`);
    const { check } = await probe({ module: one });
    expect(corr(check)[0]?.findings.map((f) => f.code)).toEqual(['correlation-shared-across-sessions', 'correlation-shared-across-sessions']);
    expect(corr(check)[0]?.findings[0]?.message).toMatch(/whose turns ran beside it in the same instance: one session's thread leaks into another's/);
  }, 60_000);
});
