import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { checkNormalizerTurn } from '../../checks/normalizer/index.ts';
import { expectTurn } from '../../checks/normalizer/expected-model.ts';
import type { NormalizerObservation } from '../../checks/normalizer/types.ts';
import { runConformance } from '../../engine.ts';
import type { RunResult } from '../../model.ts';
import { normalizerRequirements } from '../../requirements/normalizer.ts';
import { createNormalizerRunner, referenceNormalizerModule, type NormalizerTarget } from './runner.ts';
import { generateTurns } from './generated.ts';

const seed = 4242;
const bin = fileURLToPath(new URL('../../../bin/adk-conformance.js', import.meta.url));
const { scenarios } = loadScenarios();
const seedFlow = scenarios.filter((s) => s.id === 'index_reuse_seed_flow');
let mock: RunningMock;
let dir: string;

beforeAll(async () => {
  mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false });
  dir = mkdtempSync(join(tmpdir(), 'blk-harness-'));
});
afterAll(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

function certify(target: NormalizerTarget, options: { only?: typeof scenarios; generatedTurns?: number; timeoutMs?: number } = {}): Promise<RunResult> {
  const runner = createNormalizerRunner(target, options.generatedTurns !== undefined ? { generatedTurns: options.generatedTurns } : {});
  return runConformance({
    runners: [runner], scenarios: options.only ?? scenarios, requirements: normalizerRequirements, mutantKills: {}, mockUrl: mock.url,
    gate: { level: 'must', untestedFails: true }, seed, scenarioTimeoutMs: options.timeoutMs ?? 15_000,
    replayBase: 'npx adk-conformance run --normalizer-cmd x', targetDescription: runner.description, version: 'test',
  });
}

const statusOf = (r: RunResult) => Object.fromEntries(r.requirements.map((q) => [q.id, q.status]));
const codesOf = (r: RunResult, id: string) => [...new Set(r.requirements.find((q) => q.id === id)!.findings.map((f) => f.code))];

describe('the normaliser runner', () => {
  it(`certifies the reference stdio filter as a command: every BLK requirement passes (seed ${seed})`, async () => {
    const result = await certify({ command: `node ${bin} normalize` });
    expect(Object.values(statusOf(result))).toEqual(normalizerRequirements.map(() => 'passed'));
    expect(result.scenarios.map((s) => s.scenario)).toContain('probe:normalizer-generated-turns');
  });

  it('reports a command that exits at once as an exit-status finding and leaves the other checks untested', async () => {
    const result = await certify({ command: 'node -e "process.exit(3)"' }, { only: seedFlow, generatedTurns: 0 });
    expect(statusOf(result)['BLK-FLOW-002']).toBe('failed');
    expect(codesOf(result, 'BLK-FLOW-002')).toEqual(['exit-status']);
    expect(statusOf(result)['BLK-IDX-001']).toBe('untested');
    expect(result.requirements.find((q) => q.id === 'BLK-IDX-001')!.reason).toContain('exited with status 3');
  });

  it('reports garbage output as invalid JSON lines and a missing stream_end', async () => {
    const result = await certify({ command: 'cat > /dev/null; echo "hello"; echo "{\\"event_type\\":\\"nope\\",\\"data\\":{}}"' }, { only: seedFlow, generatedTurns: 0 });
    expect(codesOf(result, 'BLK-FLOW-002').sort()).toEqual(['invalid-json-line', 'schema-invalid', 'stream-end-missing']);
    expect(statusOf(result)['BLK-IDX-001']).toBe('failed');
    expect(codesOf(result, 'BLK-IDX-001').sort()).toEqual(['block-count', 'expected-block-missing']);
  });

  it('stops a command that never ends and reports it as timed out', async () => {
    // 3 s: the budget is 2.4 s, then a 0.5 s kill grace; at 1.5 s a loaded machine's CI overran the job's own bound (2026-11-30).
    const result = await certify({ command: 'sleep 30' }, { only: seedFlow, generatedTurns: 0, timeoutMs: 3000 });
    expect(result.scenarios[0]!.status).toBe('failed');
    expect(codesOf(result, 'BLK-FLOW-002')).toEqual(['timed-out']);
  });

  it('stops the part after the first 3 turns hang after their stream_end, and says it hung after its output (fail fast)', async () => {
    const turns = scenarios.filter((s) => s.family === 'index-reuse');
    expect(turns.length).toBeGreaterThan(3);
    // 3 s, as above: at 1.5 s an overrun on a loaded machine broke the streak of the first three.
    const result = await certify({ command: 'cat > /dev/null; echo \'{"event_type":"stream_end","data":{}}\'; exec sleep 30' }, { only: turns, timeoutMs: 3000 });
    const [first, ...rest] = result.scenarios;
    expect(result.scenarios.slice(0, 3).map((s) => s.status)).toEqual(['failed', 'failed', 'failed']);
    expect(first!.outcomes.find((o) => o.requirement === 'BLK-FLOW-002')!.findings[0]!.message).toMatch(/the normaliser hung after its output: it wrote stream_end but did not exit within 2400 ms$/);
    expect(first!.outcomes.find((o) => o.requirement === 'BLK-IDX-001')!.reason).toMatch(/hung after its output: .*, so only how it ended is judged$/);
    const notRun = rest.slice(2);
    expect(notRun.map((s) => s.scenario)).toContain('probe:normalizer-generated-turns');
    for (const s of notRun) expect(s).toMatchObject({ status: 'errored', durationMs: 0, error: expect.stringMatching(/^not run: the normalizer hangs after its output: it wrote stream_end but did not exit within 2400 ms of its input ending on the first 3 scenarios in a row/) });
    expect(result.verdict).toBe('non-compliant');
  });

  it('stops the part after the first 3 turns when the command does not exist (fail fast)', async () => {
    const result = await certify({ command: './adk-no-such-normalizer' }, { only: scenarios.filter((s) => s.family === 'index-reuse') });
    expect(result.scenarios.slice(3).every((s) => s.status === 'errored' && /^not run: the normalizer exited with status 127 before writing a line \(stderr: .*not found\) on the first 3 scenarios/.test(s.error ?? ''))).toBe(true);
  });

  it('reports a command that cannot start as a finding', async () => {
    const result = await certify({ command: 'adk-no-such-normalizer-binary' }, { only: seedFlow, generatedTurns: 0 });
    expect(codesOf(result, 'BLK-FLOW-002')).toEqual(['exit-status']);
    expect(result.requirements.find((q) => q.id === 'BLK-FLOW-002')!.findings[0]!.message).toMatch(/127/);
  });

  it('reports a module that throws while feeding as a finding, never a harness crash', async () => {
    const path = join(dir, 'throws.mjs');
    writeFileSync(path, 'export function createBlockNormalizer() { return { feed() { throw new Error("boom"); }, end() {} }; }\n');
    const result = await certify({ module: path }, { only: seedFlow, generatedTurns: 0 });
    expect(codesOf(result, 'BLK-FLOW-002')).toEqual(['threw']);
    expect(result.requirements.find((q) => q.id === 'BLK-FLOW-002')!.findings[0]!.message).toContain('boom');
  });

  it('bounds a module whose feed never settles', async () => {
    const path = join(dir, 'hangs.mjs');
    writeFileSync(path, 'export function createBlockNormalizer() { return { feed: () => new Promise(() => {}), end() {} }; }\n');
    const result = await certify({ module: path }, { only: seedFlow, generatedTurns: 0, timeoutMs: 1000 });
    expect(codesOf(result, 'BLK-FLOW-002')).toEqual(['timed-out']);
  });

  it('refuses a module without createBlockNormalizer with a message saying what to export', async () => {
    const path = join(dir, 'empty.mjs');
    writeFileSync(path, 'export const nothing = 1;\n');
    await expect(certify({ module: path }, { only: seedFlow })).rejects.toThrow(/exports no createBlockNormalizer function \(it exports: nothing\)/);
  });

  it('refuses a target that is neither a command nor a module', () => {
    expect(() => createNormalizerRunner({} as NormalizerTarget)).toThrow(/must be \{command: .*\} or \{module: .*\}/);
    expect(() => createNormalizerRunner({ command: '  ' })).toThrow(/createNormalizerRunner: target must be/);
    expect(() => createNormalizerRunner({ module: referenceNormalizerModule }, { generatedTurns: -1 })).toThrow(/generatedTurns/);
  });

  it('applies to the index-reuse family only', () => {
    const runner = createNormalizerRunner({ module: referenceNormalizerModule });
    expect(scenarios.filter((s) => runner.applies(s)).map((s) => s.id).sort()).toEqual(scenarios.filter((s) => s.family === 'index-reuse').map((s) => s.id).sort());
  });
});

describe('the normaliser checks', () => {
  const seedFlowInput = [
    { type: 'message_start', message: { id: 'm1', type: 'message', role: 'assistant', content: [], model: 'x' } },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'plan' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'T1', name: 'load', input: {} } },
    { type: 'content_block_stop', index: 1 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
    { type: 'message_stop' },
    { type: 'tool_result', tool_use_id: 'T1', content: 5 },
    { type: 'message_start', message: { id: 'm2', type: 'message', role: 'assistant', content: [], model: 'x' } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '{}' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' } },
    { type: 'message_stop' },
  ];

  it('the model gives seed 003 §3.2 its indices 0, 0, 0, 1, 1, 1, 2, 2, 2', () => {
    const turn = expectTurn(seedFlowInput);
    const blockEvents = turn.events.filter((e) => e.block !== undefined && e.type !== 'tool_use_input_complete');
    expect(blockEvents.map((e) => e.block)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
    expect(blockEvents.map((e) => e.type)).toEqual(['text_block_start', 'text_delta', 'content_block_stop', 'tool_use_start', 'content_block_stop', 'tool_result', 'text_block_start', 'text_delta', 'content_block_stop']);
  });

  it('the model refuses a delta for an index no open block has', () => {
    const turn = expectTurn([...seedFlowInput.slice(0, 4), { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'late' } }]);
    expect(turn.refused).toEqual([{ input: 4, kind: 'unknown-index', reason: 'block_already_stopped', at: 4, llmIndex: 0, payload: 'late', deltaType: 'text_delta' }]);
  });

  it('a text_delta carrying another block\'s index fails BLK-IDX-002 only', () => {
    const line = (event_type: string, data: Record<string, unknown>) => ({ text: '', event: { event_type, data } });
    const obs: NormalizerObservation = {
      inputs: seedFlowInput.slice(0, 4),
      termination: { kind: 'ended' },
      lines: [line('message_start', { message_id: 'm1', model: 'x' }), line('text_block_start', { index: 0, block_type: 'thinking' }), line('text_delta', { index: 7, text: 'plan' }), line('content_block_stop', { index: 0 }), line('stream_end', {})],
    };
    const outcomes = checkNormalizerTurn({ scenario: 's', pathPrefix: '', label: 'hand-made turn' }, obs);
    expect(outcomes.filter((o) => o.status === 'failed').map((o) => [o.requirement, o.findings.map((f) => [f.code, f.path, f.expected, f.actual])])).toEqual([
      ['BLK-IDX-002', [['delta-index', 'event[2]/data/index', 0, 7]]],
    ]);
  });

  it(`generated turns are deterministic for a seed (seed ${seed})`, () => {
    expect(generateTurns(seed, 6)).toEqual(generateTurns(seed, 6));
    expect(generateTurns(seed, 6)).not.toEqual(generateTurns(seed + 2, 6));
    expect(generateTurns(seed, 10).some((turn) => expectTurn(turn).refused.some((r) => r.kind === 'unknown-index'))).toBe(true);
  });
});
