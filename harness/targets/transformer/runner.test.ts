/**
 * The transformer runner against hostile implementations, over the real mock: whatever the
 * implementation does (exit at once, write garbage, never end, throw), the runner returns findings
 * and untested outcomes, never an exception, and every run has a time bound.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { CheckOutcome } from '../../model.ts';
import { createTransformerRunner, referenceTransformerModule, type TransformerTarget } from './runner.ts';

const { scenarios } = loadScenarios();
const byId = (id: string): Scenario => { const s = scenarios.find((x) => x.id === id); if (!s) throw new Error(`scenario ${id} is missing from the corpus`); return s; };
let mock: RunningMock;
const dir = mkdtempSync(join(tmpdir(), 'adk-transformer-runner-'));

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

async function runAll(target: TransformerTarget, ids: string[], scenarioTimeoutMs = 20_000): Promise<Array<{ outcomes: CheckOutcome[]; fatal?: { reason: string }; timeline: Array<{ summary: string }> }>> {
  const runner = createTransformerRunner(target, { idleMs: 300, toleranceMs: 600 });
  const env = { mockUrl: mock.url, seed: 1, scenarioTimeoutMs };
  await runner.start?.(env);
  try {
    const out = [];
    for (const id of ids) out.push(await runner.runScenario(byId(id), { ...env, signal: new AbortController().signal }));
    return out;
  } finally {
    await runner.stop?.();
  }
}

async function run(target: TransformerTarget, id: string, scenarioTimeoutMs = 20_000): Promise<CheckOutcome[]> {
  return (await runAll(target, [id], scenarioTimeoutMs))[0]?.outcomes ?? [];
}

const codes = (outcomes: CheckOutcome[], requirement: string): string[] => outcomes.filter((o) => o.requirement === requirement).flatMap((o) => o.findings.map((f) => f.code));
const statusOf = (outcomes: CheckOutcome[], requirement: string): string[] => [...new Set(outcomes.filter((o) => o.requirement === requirement).map((o) => o.status))];

function moduleFile(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

describe('transformer runner, command mode', () => {
  it('a command that exits at once with status 3 is a crash finding, and the checks needing events are untested', async () => {
    const outcomes = await run({ command: 'exit 3' }, 'plain_text');
    expect(codes(outcomes, 'ABE-TERM-001')).toEqual(expect.arrayContaining(['transformer-crashed', 'terminal-missing']));
    expect(statusOf(outcomes, 'ABE-LIFE-004')).toEqual(['untested']);
    expect(outcomes.find((o) => o.requirement === 'ABE-LIFE-004')?.reason).toMatch(/no AgentBriefingEvent.*status 3/);
  });

  it('output lines that are not event objects are ABE-SCHEMA-001 findings naming the line', async () => {
    const outcomes = await run({ command: `python3 -c "import sys; sys.stdin.read(); print('hello'); print('[1, 2]')"` }, 'plain_text');
    const schema = outcomes.filter((o) => o.requirement === 'ABE-SCHEMA-001').flatMap((o) => o.findings);
    expect(schema.map((f) => [f.code, f.path])).toEqual([['output-not-an-event', 'line 1'], ['output-not-an-event', 'line 2']]);
  });

  it('a command that starts but never ends on its input is stopped at its bound and reported as hung', async () => {
    // It exits at once on the start-up probe's empty input, so its start-up is known, and the hang is its own.
    const outcomes = await run({ command: `python3 -c "import sys, time; sys.stdin.read() and time.sleep(60)"` }, 'plain_text', 4000);
    expect(codes(outcomes, 'ABE-TERM-001')).toContain('transformer-hung');
    // What the stop cut off is not blamed on text or the answer: the hang is the finding.
    expect(outcomes.find((o) => o.requirement === 'ABE-LIFE-004')).toMatchObject({ status: 'untested', reason: expect.stringMatching(/timed out/) });
  }, 15_000);

  it('a command that cannot be found is a crash finding (sh answers 127)', async () => {
    const outcomes = await run({ command: 'adk-conformance-no-such-transformer-xyz' }, 'plain_text');
    const f = outcomes.filter((o) => o.requirement === 'ABE-TERM-001').flatMap((o) => o.findings).find((x) => x.code === 'transformer-crashed');
    expect(f?.message).toMatch(/status 127/);
  });

  it('the reference `adk-conformance transform` filter passes what plain_text exercises', async () => {
    const outcomes = await run({ command: 'node bin/adk-conformance.js transform' }, 'plain_text');
    expect(outcomes.filter((o) => o.status === 'failed').flatMap((o) => o.findings.map((f) => `${o.requirement} ${f.message}`))).toEqual([]);
    expect(statusOf(outcomes, 'ABE-LIFE-004')).toEqual(['passed']);
  }, 30_000);
});

describe('transformer runner, module mode', () => {
  it('a module without createTransformer is a configuration error thrown at start, saying what to export', async () => {
    const runner = createTransformerRunner({ module: moduleFile('empty.mjs', 'export const nothing = 1;\n') });
    await expect(runner.start?.({ mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 1000 })).rejects.toThrow(/exports neither createTransformer nor transformEvent.*docs\/harness\.md/);
  });

  it('a missing module file is a configuration error thrown at start', async () => {
    const runner = createTransformerRunner({ module: join(dir, 'absent.mjs') });
    await expect(runner.start?.({ mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 1000 })).rejects.toThrow(/does not exist/);
  });

  it('a module whose push throws is a crash finding, never an exception of the harness', async () => {
    const path = moduleFile('throws.mjs', 'export function createTransformer() { return { push() { throw new Error("boom on push"); }, end() {} }; }\n');
    const outcomes = await run({ module: path }, 'single_tool_call');
    const f = outcomes.filter((o) => o.requirement === 'ABE-TERM-001').flatMap((o) => o.findings).find((x) => x.code === 'transformer-crashed');
    expect(f?.message).toContain('boom on push');
  });

  it('a module that never reaches a terminal event fails ABE-TERM-001 and ABE-LIFE-004', async () => {
    const path = moduleFile('no-terminal.mjs', `import { randomUUID } from 'node:crypto';
export function createTransformer({ onEvent, sessionId }) {
  let said = false;
  return { push() { if (!said) { said = true; onEvent({ event_id: randomUUID(), correlation_id: sessionId, type: 'STATUS', state: 'THINKING', source_agent: 'coordinator', content: { summary: 'thinking' } }); } }, end() {} };
}\n`);
    const outcomes = await run({ module: path }, 'single_tool_call');
    expect(codes(outcomes, 'ABE-TERM-001')).toContain('terminal-missing');
    expect(codes(outcomes, 'ABE-LIFE-004')).toContain('complete-missing');
  });

  it('the reference module passes every requirement the Cedar Creek run exercises', async () => {
    const outcomes = await run({ module: referenceTransformerModule }, 'cedar_creek_briefing');
    expect(outcomes.filter((o) => o.status !== 'passed')).toEqual([]);
    expect([...new Set(outcomes.map((o) => o.requirement))]).toEqual(expect.arrayContaining(['ABE-LIFE-007', 'ABE-LIFE-008', 'ABE-PARENT-001', 'PL-CONF-002', 'PL-CIT-002', 'ABE-DET-001']));
  });
});

describe('transformer runner, scenario selection', () => {
  it('applies to ADK stream scenarios, not to plain HTTP answers, Anthropic turns or timing scenarios', () => {
    const runner = createTransformerRunner({ module: referenceTransformerModule });
    const picked = scenarios.filter((s) => runner.applies(s));
    expect(picked.map((s) => s.id)).toEqual(expect.arrayContaining(['cedar_creek_briefing', 'missing_done_hold_open', 'trail_damage_audit']));
    expect(picked.some((s) => s.upstream.kind === 'http' || s.upstream.kind === 'anthropic-turn' || s.family === 'index-reuse')).toBe(false);
    expect(picked.some((s) => (s.tags ?? []).includes('slow') || (s.tags ?? []).includes('timing'))).toBe(false);
  });

  it('rejects a target that names neither a command nor a module, saying how to give one', () => {
    expect(() => createTransformerRunner({ command: ' ' })).toThrow(/command: "python3/);
  });
});

describe('transformer runner, determinism compares what the mapping fixes (issue 28 §1)', () => {
  // Copies each dialect's own text (its raw data field, `agentName` or `agent_name` and all) into
  // fields the mapping leaves free: the summary, a transfer's detail, an extra field.
  const rawCopier = (reference: string) => `import { createTransformer as reference } from ${JSON.stringify(reference)};
export function createTransformer(options) {
  let last = '';
  const inner = reference({ ...options, onEvent: (e) => {
    e.content = { ...e.content, summary: 'raw: ' + last.slice(0, 300) };
    if (e.state === 'DELEGATING') e.content.detail = (e.content.detail ?? '') + '\\n\\nRaw: ' + last;
    e.x_raw_frame = last;
    options.onEvent(e);
  } });
  return { push(line) { last = line; inner.push(line); }, end() { inner.end(); }, dispose() { inner.dispose(); } };
}
`;

  it('a transformer that copies raw dialect text into free fields passes ABE-DET-001 across dialects', async () => {
    const outcomes = await run({ module: moduleFile('raw-copier.ts', rawCopier(referenceTransformerModule)) }, 'transfer_to_specialist');
    expect(outcomes.find((o) => o.requirement === 'ABE-DET-001')).toMatchObject({ status: 'passed', findings: [] });
  });

  it('a final text that one server\'s bytes lose still fails ABE-DET-001 across dialects (the mapping fixes that COMPLETE carries it)', async () => {
    const path = moduleFile('loses-final.ts', `import { createTransformer as reference } from ${JSON.stringify(referenceTransformerModule)};
export function createTransformer(options) {
  let python = false;
  const inner = reference({ ...options, onEvent: (e) => options.onEvent(e.state === 'COMPLETE' && python ? { ...e, content: { ...e.content, detail: 'done' } } : e) });
  return { push(line) { if (line.includes('agent_name')) python = true; inner.push(line); }, end() { inner.end(); }, dispose() { inner.dispose(); } };
}
`);
    const outcomes = await run({ module: path }, 'transfer_to_specialist');
    const f = outcomes.find((o) => o.requirement === 'ABE-DET-001')?.findings[0];
    expect(f).toMatchObject({ code: 'briefings-differ-between-dialects', path: expect.stringMatching(/\/content\/detail$/), expected: '(the final text)', actual: '(not the final text)' });
  });

  it('a counter that leaks from run to run into a free field still fails ABE-DET-001 (the same bytes fed again are compared whole)', async () => {
    const { transformerMutants } = await import('../../mutants/transformer/index.ts');
    const target = transformerMutants.find((m) => m.id === 'transformer-run-counter-in-summary')?.target as { transformer: TransformerTarget };
    const outcomes = await run(target.transformer, 'transfer_to_specialist');
    expect(codes(outcomes, 'ABE-DET-001')).toContain('briefings-differ-between-runs');
  });
});

describe('transformer runner, nothing passes unobserved (issue 28 §2)', () => {
  // The transformer: parent_event_id always null, no usage, and no delegation followed by
  // a specialist's insight (only the lifecycle STATUS events it is sure of and the COMPLETE).
  const sparse = (reference: string) => `import { createTransformer as reference } from ${JSON.stringify(reference)};
export function createTransformer(options) {
  return reference({ ...options, onEvent: (e) => {
    if (e.type === 'INSIGHT' && e.state !== 'COMPLETE') return;
    if (e.state === 'DELEGATING' || e.state === 'EXECUTING') return;
    delete e.usage;
    options.onEvent({ ...e, parent_event_id: null });
  } });
}
`;

  it('a transformer that never emits a delegated insight, an announcement or usage leaves ABE-PARENT-001, ABE-CALL-001 and ABE-USAGE-001 untested with the reason, and the verdict is not compliant', async () => {
    const { aggregate } = await import('../../engine-aggregate.ts');
    const { computeVerdict } = await import('../../verdict.ts');
    const { transformerRequirements } = await import('../../requirements/transformer.ts');
    const path = moduleFile('sparse.ts', sparse(referenceTransformerModule));
    const outcomes = [...await run({ module: path }, 'cedar_creek_briefing'), ...await run({ module: path }, 'single_tool_call')];
    expect(outcomes.find((o) => o.requirement === 'ABE-PARENT-001' && o.scenario === 'cedar_creek_briefing')).toMatchObject({ status: 'untested', reason: expect.stringMatching(/no INSIGHT followed a DELEGATING event/) });
    expect(outcomes.find((o) => o.requirement === 'ABE-CALL-001' && o.scenario === 'single_tool_call')).toMatchObject({ status: 'untested', reason: expect.stringMatching(/no DELEGATING or EXECUTING event announced/) });
    expect(outcomes.find((o) => o.requirement === 'ABE-USAGE-001' && o.scenario === 'single_tool_call')).toMatchObject({ status: 'untested', reason: expect.stringMatching(/no briefing reported token usage/) });
    const results = aggregate(transformerRequirements, new Set(['transformer']), outcomes, {});
    for (const id of ['ABE-PARENT-001', 'ABE-CALL-001', 'ABE-USAGE-001']) expect(results.find((r) => r.id === id)?.status, id).toBe('untested');
    expect(computeVerdict(results).verdict).toBe('non-compliant');
  });

  it('the reference passes the same three requirements on the same runs (each exercised)', async () => {
    const outcomes = [...await run({ module: referenceTransformerModule }, 'cedar_creek_briefing'), ...await run({ module: referenceTransformerModule }, 'single_tool_call')];
    expect(statusOf(outcomes.filter((o) => o.scenario === 'cedar_creek_briefing'), 'ABE-PARENT-001')).toEqual(['passed']);
    expect(statusOf(outcomes.filter((o) => o.scenario === 'single_tool_call'), 'ABE-CALL-001')).toEqual(['passed']);
    expect(statusOf(outcomes.filter((o) => o.scenario === 'single_tool_call'), 'ABE-USAGE-001')).toEqual(['passed']);
  });
});

describe('transformer runner, start-up is not behaviour (issue 28 §3)', () => {
  const example = 'python3 examples/python-transformer/transformer.py';
  const ids = ['plain_text', 'missing_done_hold_open', 'single_tool_call'];
  const statuses = (results: Awaited<ReturnType<typeof runAll>>) => Object.fromEntries(results.flatMap((r) => r.outcomes.map((o) => [`${o.scenario} ${o.requirement}`, o.status])));

  it('the example Python transformer behind a 3 s start-up gets the same outcomes as started directly, its start-up measured and reported', async () => {
    const direct = await runAll({ command: example, protocol: 'one-shot' }, ids);
    const slow = await runAll({ command: `sh -c 'sleep 3; exec ${example}'`, protocol: 'one-shot' }, ids);
    expect(statuses(slow)).toEqual(statuses(direct));
    expect(Object.values(statuses(direct))).toContain('passed');
    const note = slow[0]?.timeline.map((t) => t.summary).find((t) => t.startsWith('start-up'));
    expect(note).toMatch(/^start-up \d+ ms .*excluded from every run's clock; bound 20 s \(--startup-timeout S/);
    // At least the 3 s sleep; a loaded CI runner adds the Python start-up's share of it (4,273 ms seen).
    expect(Number(/^start-up (\d+) ms/.exec(note ?? '')?.[1])).toBeGreaterThanOrEqual(3000);
  }, 120_000);

  it('the same in the session form: its ready line comes 3 s after spawn, the runs start after it and get the same outcomes', async () => {
    const direct = await runAll({ command: example }, ids);
    const slow = await runAll({ command: `sh -c 'sleep 3; exec ${example}'` }, ids);
    expect(statuses(slow)).toEqual(statuses(direct));
    expect(Object.values(statuses(direct))).toContain('passed');
    const note = slow[0]?.timeline.map((t) => t.summary).find((t) => t.startsWith('session form'));
    expect(note).toMatch(/^session form: python-transformer 1\.0\.0 \(python\) said ready \d+ ms after spawn/);
    // At least the 3 s sleep (CI of edd99ed on a loaded runner: 4,273 ms).
    expect(Number(/said ready (\d+) ms/.exec(note ?? '')?.[1])).toBeGreaterThanOrEqual(3000);
  }, 120_000);

  it('a defective transformer behind a 3 s start-up still fails', async () => {
    const [result] = await runAll({ command: `sh -c 'sleep 3; exec python3 -c "import sys; sys.stdin.read()"'` }, ['plain_text']);
    expect(codes(result?.outcomes ?? [], 'ABE-TERM-001')).toContain('terminal-missing');
  }, 60_000);

  it('a command whose start-up the probe cannot measure within the bound is fed from spawn; not finishing is a hang whose message names the start-up bound and the flag, and nothing else is blamed', async () => {
    const [result] = await runAll({ command: 'sleep 60', startupTimeoutMs: 1500 }, ['plain_text']);
    const hung = result?.outcomes.find((o) => o.requirement === 'ABE-TERM-001')?.findings.find((f) => f.code === 'transformer-hung');
    expect(hung?.message).toMatch(/did not finish within its time bound after the end of its input; given an empty input it did not finish within the 1\.5 s start-up bound either: if it is only slow to start, not hung, raise the bound with --startup-timeout S/);
    expect(new Set(result?.outcomes.filter((o) => o.requirement !== 'ABE-TERM-001').map((o) => o.status))).toEqual(new Set(['untested']));
    expect(result?.timeline[0]?.summary).toMatch(/^start-up not measured: given an empty input, the command neither wrote a line nor exited within the 1\.5 s start-up bound/);
    expect(result?.fatal?.reason).toMatch(/hangs/);
  }, 30_000);

  it('with no bound given, a command that never answers is not waited for: its first run starts after the start-up window and, overrunning while the probe still waits, is a hang by both measures (issue 30 §3)', async () => {
    const started = performance.now();
    const [result] = await runAll({ command: 'sleep 60' }, ['plain_text']);
    // 0.5 s window + the run's input and its 5 s bound (20 s / 4): nowhere near the 20 s start-up bound.
    expect(performance.now() - started).toBeLessThan(12_000);
    const hung = result?.outcomes.find((o) => o.requirement === 'ABE-TERM-001')?.findings.find((f) => f.code === 'transformer-hung');
    expect(hung?.message).toMatch(/did not finish within its time bound after the end of its input; given an empty input it had not answered either after \d+(\.\d)? s \(the start-up probe was still waiting\): if it is only slow to start, not hung, give the bound with --startup-timeout S/);
    expect(result?.fatal).toMatchObject({ signature: 'hangs' });
  }, 30_000);

  it('a slow starter (2 s) whose first run began before the probe answered is judged on a run given its start-up: the early run is run again (one-shot)', async () => {
    const slow = await runAll({ command: `sh -c 'sleep 2; exec ${example}'`, protocol: 'one-shot' }, ['plain_text']);
    const direct = await runAll({ command: example, protocol: 'one-shot' }, ['plain_text']);
    expect(statuses(slow)).toEqual(statuses(direct));
    expect(Object.values(statuses(slow))).toContain('passed');
    // At least the 2 s sleep (CI of c9f4c60 on a loaded runner: 3,043 ms).
    expect(Number(/^start-up (\d+) ms /.exec(slow[0]?.timeline.map((t) => t.summary).find((t) => t.startsWith('start-up')) ?? '')?.[1])).toBeGreaterThanOrEqual(2000);
  }, 60_000);
});

describe('transformer runner, the reason of an output with no valid event (issue 28 §4)', () => {
  it('names the events emitted and their most common schema problem, not "emitted no AgentBriefingEvent"', async () => {
    const path = moduleFile('lowercase.ts', `import { createTransformer as reference } from ${JSON.stringify(referenceTransformerModule)};
export function createTransformer(options) { return reference({ ...options, onEvent: (e) => options.onEvent({ ...e, type: e.type.toLowerCase() }) }); }
`);
    const outcomes = await run({ module: path }, 'cedar_creek_briefing');
    const reasons = outcomes.filter((o) => o.status === 'untested').map((o) => o.reason ?? '');
    expect(reasons.length).toBeGreaterThan(0);
    for (const r of reasons) {
      expect(r).not.toMatch(/emitted no AgentBriefingEvent/);
      expect(r).toMatch(/emitted \d+ events and none is a valid AgentBriefingEvent.*\/type must be one of .*differs from "(INSIGHT|STATUS)" only in case/);
    }
  });
});

describe('transformer runner, a profile naming only adk-python servers (issue 28 §1)', () => {
  it('exercises ABE-TERM-003 on the held-open run rehomed to adk-python: the reference passes it and a module without an idle timer fails it', async () => {
    const { profileScenarios } = await import('../../profile.ts');
    const { transformerMutants } = await import('../../mutants/transformer/index.ts');
    const held = profileScenarios({ parts: ['transformer'], capabilities: { dialects: ['adk-python'] }, reasons: { dialects: 'Python only' } }, scenarios).scenarios.find((s) => s.id === 'missing_done_hold_open') as Scenario;
    expect(held.dialect).toBe('adk-python');
    const once = async (target: TransformerTarget) => {
      const runner = createTransformerRunner(target, { idleMs: 300, toleranceMs: 600 });
      const env = { mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 20_000 };
      await runner.start?.(env);
      try { return (await runner.runScenario(held, { ...env, signal: new AbortController().signal })).outcomes; } finally { await runner.stop?.(); }
    };
    expect(statusOf(await once({ module: referenceTransformerModule }), 'ABE-TERM-003')).toEqual(['passed']);
    const noIdle = transformerMutants.find((m) => m.id === 'transformer-no-idle-timer')?.target as { transformer: TransformerTarget };
    expect(statusOf(await once(noIdle.transformer), 'ABE-TERM-003')).toEqual(['failed']);
  }, 30_000);
});

describe('transformer runner, a scripted silence longer than the bound (issue 28 §4)', () => {
  it('captures the rendering without waiting, frame for frame as the mock serves it', async () => {
    const { captureFromPlan, captureRun } = await import('./capture.ts');
    for (const id of ['cedar_creek_briefing', 'missing_done_hold_open', 'framing_agent_tool_silence']) {
      const s = byId(id);
      const served = await captureRun(mock.url, s, s.dialect as never, new AbortController().signal);
      const planned = captureFromPlan(s, s.dialect as never);
      // Ids, invocation ids and timestamps are drawn per run; everything else is the same bytes.
      const plain = (c: typeof served) => c.frames.map((f) => f.data.replaceAll(c.sessionId, 'S').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'U')
        .replace(/"(invocationId|invocation_id|id)":"[^"]*"/g, '"$1":"I"').replace(/"timestamp":[0-9.e+]+/g, '"timestamp":T'));
      expect(plain(planned), id).toEqual(plain(served));
      expect([planned.ending, planned.expectedFrames], id).toEqual([served.ending, served.expectedFrames]);
    }
  });

  it('runs framing_idle_silence (65 s scripted) within the default bound when slow scenarios are included, and the reference passes it', async () => {
    const runner = createTransformerRunner({ module: referenceTransformerModule }, { idleMs: 300, toleranceMs: 600, includeSlow: true });
    expect(runner.applies(byId('framing_idle_silence'))).toBe(true);
    const env = { mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 30_000 };
    await runner.start?.(env);
    const t0 = performance.now();
    const { outcomes } = await runner.runScenario(byId('framing_idle_silence'), { ...env, signal: new AbortController().signal });
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(outcomes.filter((o) => o.status !== 'passed' && o.status !== 'untested')).toEqual([]);
    expect(statusOf(outcomes, 'ABE-LIFE-004')).toEqual(['passed']);
  }, 30_000);
});
