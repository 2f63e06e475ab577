/**
 * Spec versions (issue 31 §2) through the transformer runner, over the real mock: the 1.1 reference
 * is judged against 1.1 when its events say so, without a flag; a 1.1 transformer judged against
 * 1.0 (and a 1.0 one against 1.1) is told the real cause and the flag, not "emitted no
 * AgentBriefingEvent"; and the requirements of the other version are not applicable, with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { CheckOutcome } from '../../model.ts';
import type { PartRunner } from '../types.ts';
import { createTransformerRunner, referenceTransformer11Module, referenceTransformerModule, type TransformerTarget } from './runner.ts';

const { scenarios } = loadScenarios();
const byId = (id: string): Scenario => { const s = scenarios.find((x) => x.id === id); if (!s) throw new Error(`scenario ${id} is missing from the corpus`); return s; };
let mock: RunningMock;

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

async function runAll(target: TransformerTarget, ids: string[]): Promise<{ outcomes: CheckOutcome[]; runner: PartRunner }> {
  const runner = createTransformerRunner(target, { idleMs: 300, toleranceMs: 600, memoryProbe: false });
  const env = { mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 20_000 };
  await runner.start?.(env);
  try {
    const outcomes: CheckOutcome[] = [];
    for (const id of ids) outcomes.push(...(await runner.runScenario(byId(id), { ...env, signal: new AbortController().signal })).outcomes);
    return { outcomes, runner };
  } finally {
    await runner.stop?.();
  }
}

const statusOf = (outcomes: CheckOutcome[], requirement: string): string[] => [...new Set(outcomes.filter((o) => o.requirement === requirement).map((o) => o.status))];
const ids = ['cedar_creek_briefing', 'plain_text', 'error_frame_adk_js', 'audit_data_sources', 'tool_error'];

describe('spec versions through the transformer runner', () => {
  it('the 1.1 reference without --spec is detected as 1.1 from its events and passes every check it meets, ABE-SCHEMA-002 included', async () => {
    const { outcomes, runner } = await runAll({ module: referenceTransformer11Module }, ids);
    expect(runner.spec?.()).toEqual({ version: '1.1', how: 'detected', detail: 'its events declare schema_version "1.1.0"' });
    expect(statusOf(outcomes, 'ABE-SCHEMA-002')).toEqual(['passed']);
    expect(outcomes.filter((o) => o.requirement === 'ABE-SCHEMA-001')).toEqual([]);
    expect(outcomes.filter((o) => o.status === 'failed').map((o) => `${o.requirement} ${o.findings[0]?.message ?? ''}`)).toEqual([]);
    expect(outcomes.filter((o) => o.status === 'passed').length).toBeGreaterThan(80);
    expect(runner.notApplicable?.['ABE-SCHEMA-001']).toBe('not in spec 1.1 (removed in spec 1.1); this run is judged against spec 1.1 (detected: its events declare schema_version "1.1.0")');
  }, 60_000);

  it('the 1.0 reference without --spec stays 1.0 (its events declare no schema_version), and ABE-SCHEMA-002 is not applicable', async () => {
    const { outcomes, runner } = await runAll({ module: referenceTransformerModule }, ['plain_text']);
    expect(runner.spec?.()).toEqual({ version: '1.0', how: 'default', detail: 'its events declare no schema_version' });
    expect(statusOf(outcomes, 'ABE-SCHEMA-001')).toEqual(['passed']);
    expect(outcomes.filter((o) => o.requirement === 'ABE-SCHEMA-002')).toEqual([]);
    expect(runner.notApplicable?.['ABE-SCHEMA-002']).toMatch(/^not in spec 1\.0 \(introduced in spec 1\.1\)/);
  }, 30_000);

  it('the 1.1 reference under --spec 1.0 is told its types are 1.1\'s and which flag to use, not that it "emitted no AgentBriefingEvent"', async () => {
    const { outcomes, runner } = await runAll({ module: referenceTransformer11Module, spec: '1.0' }, ['cedar_creek_briefing']);
    expect(runner.spec?.()).toEqual({ version: '1.0', how: 'given', detail: '--spec 1.0' });
    const reasons = [...new Set(outcomes.filter((o) => o.status === 'untested').map((o) => o.reason ?? ''))];
    expect(reasons).toHaveLength(1);
    // No lifecycle check fails on a type name of the other version ("the COMPLETE event is a insight, not an INSIGHT"): only the schema says so.
    expect([...new Set(outcomes.filter((o) => o.status === 'failed').map((o) => o.requirement))]).toEqual(['ABE-SCHEMA-001']);
    expect(reasons[0]).toMatch(/^its events' `type` is `status_update`: spec 1\.0 has STATUS; did you mean `--spec 1\.1`\? \(they declare schema_version "1\.1\.0"\) the implementation emitted \d+ events and none is a valid AgentBriefingEvent of spec 1\.0/);
    expect(reasons[0]).not.toMatch(/emitted no AgentBriefingEvent/);
    const schema = outcomes.filter((o) => o.requirement === 'ABE-SCHEMA-001').flatMap((o) => o.findings);
    expect(schema.find((f) => f.path.endsWith('/type'))?.message).toMatch(/"status_update" is spec 1\.1's name for STATUS: did you mean --spec 1\.1\?/);
  }, 30_000);

  it('the 1.0 reference under --spec 1.1 fails ABE-SCHEMA-002, told the other way round', async () => {
    const { outcomes } = await runAll({ module: referenceTransformerModule, spec: '1.1' }, ['plain_text']);
    expect(statusOf(outcomes, 'ABE-SCHEMA-002')).toEqual(['failed']);
    const findings = outcomes.filter((o) => o.requirement === 'ABE-SCHEMA-002').flatMap((o) => o.findings);
    expect(findings.find((f) => f.path.endsWith('/type'))?.message).toMatch(/"(STATUS|INSIGHT)" is spec 1\.0's name for (STATUS|INSIGHT): did you mean --spec 1\.0\?/);
    // Every untested check names the same cause first.
    for (const o of outcomes.filter((x) => x.status === 'untested')) expect(o.reason).toMatch(/^its events' `type` is `(STATUS|INSIGHT)`: spec 1\.1 has (status_update|insight); did you mean `--spec 1\.0`\?/);
  }, 30_000);

  it('under 1.1 the other checks speak 1.1\'s type names: a mutant whose final answer is a status_update is told so', async () => {
    const { transformerMutants } = await import('../../mutants/transformer/index.ts');
    const mutant = transformerMutants.find((m) => m.id === 'transformer-final-answer-as-status');
    expect(mutant).toBeDefined();
    const path = (mutant?.target.transformer as { module: string }).module;
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'adk-spec-')), 'final-as-status-1-1.ts');
    writeFileSync(file, `import { createTransformer as inner } from ${JSON.stringify(path)};
import { toSpec11 } from ${JSON.stringify(new URL('../../../reference-impl/transformer/spec-1-1.ts', import.meta.url).pathname)};
export function createTransformer(options) { return inner({ ...options, onEvent: (e) => options.onEvent(toSpec11(e)) }); }
`);
    const { outcomes } = await runAll({ module: file }, ['plain_text']);
    const life = outcomes.filter((o) => o.requirement === 'ABE-LIFE-004').flatMap((o) => o.findings);
    expect(life.length).toBeGreaterThan(0);
    expect(life.map((f) => f.message).join(' ')).not.toMatch(/\b(INSIGHT|STATUS)\b/);
    expect(JSON.stringify(life.map((f) => [f.expected, f.actual]))).toMatch(/status_update|insight/);
  }, 30_000);
});

describe('spec versions through a certification', () => {
  it('the verdict line and the JSON report name the spec and how it was chosen; the other version\'s schema requirement is not applicable with the reason', async () => {
    const { runCertification } = await import('../../certify.ts');
    const { mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const lines: string[] = [];
    const result = await runCertification({
      target: { transformer: { module: referenceTransformer11Module }, reference: false, mockPort: 0 },
      level: 'must', seed: 1, grep: ['cedar_creek_briefing'], outDir: mkdtempSync(join(tmpdir(), 'adk-spec-cert-')), reporters: ['json'],
      scenarioTimeoutMs: 20_000, replayBase: 'npx adk-conformance run --transformer-module reference-1-1.ts', log: (l) => lines.push(l), generated: 0, jobs: 2,
    });
    expect(result.spec).toEqual({ version: '1.1', how: 'detected', detail: 'its events declare schema_version "1.1.0"' });
    expect(lines.find((l) => l.startsWith('verdict: '))).toMatch(/^verdict: fully compliant \(.*; spec 1\.1, detected: its events declare schema_version "1\.1\.0"\) in \d+\.\d s$/);
    const schema1 = result.requirements.find((r) => r.id === 'ABE-SCHEMA-001');
    expect([schema1?.status, schema1?.reason]).toEqual(['not-applicable', 'not in spec 1.1 (removed in spec 1.1); this run is judged against spec 1.1 (detected: its events declare schema_version "1.1.0")']);
    expect(result.requirements.find((r) => r.id === 'ABE-SCHEMA-002')?.status).toBe('passed');
  }, 120_000);
});
