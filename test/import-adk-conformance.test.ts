/**
 * `import-adk-conformance`: ADK's own conformance cases (test/fixtures/adk-conformance, written in
 * ADK's format from adk-python's conformance sources) become corpus scenarios that validate, lint,
 * replay on the mock, and certify the reference transformer.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockLintOptions } from '../cli/commands/lint-scenarios.ts';
import { run as importCommand } from '../cli/commands/import-adk-conformance.ts';
import { startMock } from '../mock-adk/server/start.ts';
import { importAdkConformance, type ImportReport } from '../recorder/adk-import/import-cases.ts';
import { mapSession } from '../recorder/adk-import/map-session.ts';
import { lintCorpus } from '../scenarios/lint.ts';
import { defaultScenariosDir, loadScenarios } from '../scenarios/loader.ts';
import type { Scenario } from '../schemas/types.ts';
import { runCli } from './cli-support.ts';

const fixtures = join(import.meta.dirname, 'fixtures', 'adk-conformance', 'tests');
const work = mkdtempSync(join(tmpdir(), 'adk-import-'));
const out = join(work, 'imported');
let report: ImportReport;
let scenarios: Map<string, Scenario>;

beforeAll(() => {
  report = importAdkConformance(fixtures, { outDir: out });
  scenarios = new Map(loadScenarios(out).scenarios.map((s) => [s.id, s]));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function lines(): { io: { out: (l: string) => void; err: (l: string) => void }; stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { io: { out: (l) => stdout.push(l), err: (l) => stderr.push(l) }, stdout, stderr };
}

describe('import-adk-conformance on ADK-format cases', () => {
  it('imports the plain, tool, transfer and SSE cases and skips the unsupported one with its reason', () => {
    expect(report.imported.map((e) => e.id).sort()).toEqual(['core_plain_text', 'core_streamed_answer_sse', 'multi_agent_transfer_to_sub_agent', 'tools_single_tool_call']);
    expect(report.failed).toEqual([]);
    expect(report.skipped).toHaveLength(1);
    expect(report.skipped[0]?.case).toBe('callbacks/before_agent_state');
    expect(report.skipped[0]?.reasons.join('\n')).toMatch(/events\[1\] has no content, only a state_delta/);
  });

  it('writes files that are schema-valid and pass the corpus linter', () => {
    expect(loadScenarios(out).errors).toEqual([]);
    const linted = lintCorpus(out, mockLintOptions());
    expect(linted.issues.filter((i) => i.rule !== 'shared-docs-missing')).toEqual([]);
    expect(linted.fileCount).toBe(4);
  });

  it('replays the session: steps, ids, state deltas, transfer, provenance and expectations', () => {
    const tool = scenarios.get('tools_single_tool_call')!;
    expect(tool.dialect).toBe('adk-python');
    expect(tool.tags).toEqual(expect.arrayContaining(['imported', 'adk-conformance', 'non-streaming', 'tools', 'state-delta']));
    expect(tool.session).toEqual({ userId: 'adk_conformance_test_user', sessionId: '3e1f5a7c-2b4d-4e6f-8a0b-9c1d2e3f4a5b', state: { units: 'acres' } });
    expect(tool.upstream).toMatchObject({ kind: 'run', invocationId: 'e-8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a', ids: { calls: ['adk-6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0'] } });
    const steps = tool.upstream.kind === 'run' ? tool.upstream.steps : [];
    expect(steps.map((s) => Object.keys(s)[0])).toEqual(['model', 'tools', 'model']);
    expect(steps[1]?.tools).toMatchObject({ author: 'tools_agent', stateDelta: { last_fire: 'Cedar Creek' }, responses: [{ name: 'get_fire_perimeter', response: { acres: 127283 } }] });
    expect(tool.replays).toContain('tools/single_tool_call/generated-session.yaml');
    expect(tool.expect).toMatchObject({ status: 200, outcome: 'complete', frames: 3, completionPoint: 2, finalText: 'The Cedar Creek perimeter encloses 127,283 acres; the fire is 100% contained.' });

    const transfer = scenarios.get('multi_agent_transfer_to_sub_agent')!;
    expect(transfer.family).toBe('transfer');
    expect(transfer.expect.briefings).toEqual([
      { type: 'STATUS', state: 'DELEGATING', source_agent: 'coordinator' },
      { type: 'INSIGHT', state: 'COMPLETE', source_agent: 'trail_assessor' },
    ]);
    for (const s of scenarios.values()) expect(`${s.title} ${s.description ?? ''}`).not.toMatch(/\bshould\b/i);
  });

  it('turns an -sse golden into a streaming scenario split as the recordings streamed it', () => {
    const sse = scenarios.get('core_streamed_answer_sse')!;
    expect(sse.request.streaming).toBe(true);
    expect(sse.tags).toContain('streaming');
    const model = sse.upstream.kind === 'run' ? sse.upstream.steps[0]?.model : undefined;
    expect(model?.chunks).toEqual(['The Cedar Creek fire ', 'burned 127,283 acres ', 'in Oregon and is fully contained.']);
    expect(sse.expect.frames).toBe(4);
  });

  it('serves an imported scenario on the mock with the recorded invocation and call ids', async () => {
    const mock = await startMock({ host: '127.0.0.1', port: 0, scenarios: [...scenarios.values()], timeScale: 0 });
    try {
      const app = 'tools_single_tool_call';
      const created = await fetch(`${mock.url}/apps/${app}/users/adk_conformance_test_user/sessions/s1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(created.status).toBeLessThan(300);
      const response = await fetch(`${mock.url}/run_sse`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ appName: app, userId: 'adk_conformance_test_user', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'What is the Cedar Creek perimeter?' }] } }),
      });
      const events = (await response.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
      expect(events).toHaveLength(3);
      expect(new Set(events.map((e) => e['invocationId']))).toEqual(new Set(['e-8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a']));
      expect(JSON.stringify(events[0])).toContain('adk-6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0');
      expect(JSON.stringify(events[2])).toContain('127,283 acres; the fire is 100% contained.');
    } finally {
      await mock.close();
    }
  });

  it('certifies the reference transformer: every imported scenario passes, and with the kit corpus the verdict is fully compliant', async () => {
    // Alone, the imported cases leave most requirements untested (an untested requirement counts
    // against the verdict), so the verdict is certified on the kit corpus plus the imported files.
    const alone = await runCli(['run', '--transformer-module', 'harness/targets/transformer/reference.ts', '--scenarios', out, '--generated', '0', '--out', join(work, 'report-alone')]);
    // The four imported scenarios and the long-lived and memory probes (they render kit scenarios themselves).
    expect(alone.stdout).toMatch(/^runs: 6\/6 passed/m);
    expect(alone.stdout).not.toMatch(/^FAIL/m);

    const combined = join(work, 'combined');
    mkdirSync(combined);
    for (const name of readdirSync(defaultScenariosDir).filter((n) => n.endsWith('.json'))) cpSync(join(defaultScenariosDir, name), join(combined, name));
    for (const name of readdirSync(out)) cpSync(join(out, name), join(combined, name));
    const result = await runCli(['run', '--transformer-module', 'harness/targets/transformer/reference.ts', '--scenarios', combined, '--generated', '0', '--out', join(work, 'report')]);
    expect(result.stdout).toMatch(/verdict: fully compliant/);
    expect(result.code).toBe(0);
    const json = JSON.parse(readFileSync(join(work, 'report', 'report.json'), 'utf8')) as { scenarios: Array<{ scenario: string; status: string }> };
    const imported = json.scenarios.filter((s) => report.imported.some((e) => e.id === s.scenario));
    expect(imported.length).toBeGreaterThanOrEqual(4);
    expect(imported.every((s) => s.status === 'passed')).toBe(true);
  }, 120_000);
});

describe('import-adk-conformance on bad input', () => {
  const bad = join(work, 'bad');

  it('names a case folder without spec.yaml and says how to fix it', () => {
    const dir = join(bad, 'missing', 'tests', 'core', 'no_spec');
    mkdirSync(dir, { recursive: true });
    cpSync(join(fixtures, 'core', 'plain_text', 'generated-session.yaml'), join(dir, 'generated-session.yaml'));
    const r = importAdkConformance(join(bad, 'missing', 'tests'), { outDir: join(bad, 'out1') });
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0]?.message).toMatch(/core\/no_spec\/spec\.yaml is missing.*Copy the case's spec\.yaml/);
  });

  it('names a file that is not valid YAML, with line and column, and keeps the good cases', () => {
    const root = join(bad, 'yaml', 'tests');
    cpSync(join(fixtures, 'core', 'plain_text'), join(root, 'core', 'plain_text'), { recursive: true });
    mkdirSync(join(root, 'core', 'broken'), { recursive: true });
    writeFileSync(join(root, 'core', 'broken', 'spec.yaml'), 'description: broken\nagent: [unclosed\n');
    const r = importAdkConformance(root, { outDir: join(bad, 'out2') });
    expect(r.imported.map((e) => e.id)).toEqual(['core_plain_text']);
    expect(r.failed[0]?.message).toMatch(/core\/broken\/spec\.yaml is not valid YAML \(line \d+, column \d+: .*\)\. Fix the YAML there/);
  });

  it('rejects a spec with keys ADK does not know, and skips a multi-turn case with its reason', () => {
    const root = join(bad, 'spec', 'tests');
    cpSync(join(fixtures, 'core', 'plain_text'), join(root, 'core', 'extra_key'), { recursive: true });
    writeFileSync(join(root, 'core', 'extra_key', 'spec.yaml'), 'description: d\nagent: a\nuser_message: [hi]\n');
    cpSync(join(fixtures, 'core', 'plain_text'), join(root, 'core', 'two_turns'), { recursive: true });
    writeFileSync(join(root, 'core', 'two_turns', 'spec.yaml'), 'description: d\nagent: a\nuser_messages:\n  - text: one\n  - text: two\n');
    const r = importAdkConformance(root, { outDir: join(bad, 'out3') });
    expect(r.failed[0]?.message).toMatch(/unknown key user_message .*remove it/);
    expect(r.skipped[0]?.reasons.join(' ')).toMatch(/sends 2 user messages; a scenario replays one request/);
  });

  it('exits 2 with a clear message when the folder holds no case, 1 when a case is skipped', async () => {
    const empty = join(bad, 'empty');
    mkdirSync(empty, { recursive: true });
    const cli = await runCli(['import-adk-conformance', empty, '--out', join(bad, 'out4')]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/no spec\.yaml under .*pass the folder holding them/);

    const captured = lines();
    const code = await importCommand([fixtures, '--out', join(bad, 'out5'), '--json'], captured.io);
    expect(code).toBe(1);
    const parsed = JSON.parse(captured.stdout.join('\n')) as ImportReport;
    expect(parsed.imported).toHaveLength(4);
    expect(parsed.skipped).toHaveLength(1);
  });

  it('maps an error_code event to a modelError step and reports fields it cannot replay', () => {
    const user = { author: 'user', invocation_id: 'e-1', content: { role: 'user', parts: [{ text: 'hi' }] } };
    const error = mapSession({ events: [user, { author: 'a', invocation_id: 'e-1', error_code: 'SAFETY', error_message: 'blocked', finish_reason: 'SAFETY' }] }, { streaming: false });
    expect(error.unsupported).toEqual([]);
    expect(error.steps).toEqual([{ modelError: { author: 'a', errorCode: 'SAFETY', errorMessage: 'blocked', finishReason: 'SAFETY' } }]);
    const branched = mapSession({ events: [user, { author: 'a', invocation_id: 'e-1', branch: 'root.a', content: { role: 'model', parts: [{ text: 'x' }, { inline_data: { mime_type: 'image/png' } }] }, actions: { escalate: true } }] }, { streaming: false });
    expect(branched.unsupported.join('\n')).toMatch(/events\[1\]\.branch: the run script has no field for it/);
    expect(branched.unsupported.join('\n')).toMatch(/parts\[1\] is inline_data/);
    expect(branched.unsupported.join('\n')).toMatch(/actions\.escalate/);
  });

  it('renders a Python golden as adk-js on request (the transfer argument becomes agentName)', () => {
    const r = importAdkConformance(join(fixtures, 'multi_agent'), { outDir: join(bad, 'out6'), dialect: 'adk-js' });
    expect(r.imported.map((e) => e.id)).toEqual(['multi_agent_transfer_to_sub_agent']);
    const scenario = JSON.parse(readFileSync(r.imported[0]!.file, 'utf8')) as Scenario;
    expect(scenario.dialect).toBe('adk-js');
    expect(lintCorpus(join(bad, 'out6'), mockLintOptions()).issues.filter((i) => i.rule !== 'shared-docs-missing')).toEqual([]);
  });
});
