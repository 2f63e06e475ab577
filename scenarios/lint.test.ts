import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { lintCorpus, lintScenarios, type LintIssue, type LintOptions, type LintRule, type RenderedPlan } from './lint.ts';
import { parseSections, resolveSection } from './spec-refs.ts';
import { minimalScenario } from './test-support.ts';

const invocation = 'e-0f0e0d0c-0b0a-4909-8807-060504030201';

/** A minimal valid scenario; each test breaks one thing. */
function valid(id = 'tiny_run'): Record<string, any> {
  return minimalScenario(id, { text: 'hello world', invocationId: invocation });
}

/** A stand-in renderer: one event frame per model/tools/modelError step, one error frame per errorFrame step. */
const fakeRender: NonNullable<LintOptions['render']> = (scenario) => {
  if (scenario.upstream.kind !== 'run') return { frames: [] };
  return {
    frames: scenario.upstream.steps.flatMap((step): RenderedPlan['frames'] => {
      if (step.errorFrame) return [{ data: JSON.stringify({ error: step.errorFrame.message }), kind: 'error', json: { error: step.errorFrame.message } }];
      if (step.model || step.tools || step.modelError) return [{ data: '{}', kind: 'event', json: {} }];
      return [];
    }),
  };
};

function lint(values: unknown[], options: LintOptions = {}, files?: string[]): LintIssue[] {
  return lintScenarios(values, files ?? values.map((v) => `/corpus/${String((v as { id?: unknown } | null)?.id ?? 'x')}.json`), { render: fakeRender, faultNames: ['crlf', 'split-every-byte'], ...options });
}

const rules = (issues: LintIssue[]) => issues.map((i) => i.rule);
const only = (issues: LintIssue[], rule: LintRule) => issues.filter((i) => i.rule === rule);

describe('lintScenarios: a clean scenario', () => {
  test('a valid, consistent scenario has no issues', () => {
    expect(lint([valid()])).toEqual([]);
  });
});

describe('lintScenarios: each rule fires on a deliberately bad scenario', () => {
  test('schema-valid: a missing title is reported at /title and no other rule runs', () => {
    const s = valid();
    delete s.title;
    s.variantOf = 'nothing_here';
    expect(lint([s])).toEqual([{ file: '/corpus/tiny_run.json', path: '/title', rule: 'schema-valid', message: "must have required property 'title'" }]);
  });

  test('schema-valid: a title over 150 characters is refused', () => {
    const s = valid();
    s.title = `a run ${'x'.repeat(150)}`;
    expect(lint([s])).toEqual([expect.objectContaining({ path: '/title', rule: 'schema-valid' })]);
  });

  test('id-unique: two files with one id are both reported', () => {
    const issues = lint([valid(), valid()], {}, ['/corpus/tiny_run.json', '/other/tiny_run.json']);
    expect(only(issues, 'id-unique')).toHaveLength(2);
    expect(only(issues, 'id-unique')[0]?.message).toMatch(/used by 2 files/);
  });

  test('id-matches-file: an id that differs from its file name is reported', () => {
    expect(lint([valid()], {}, ['/corpus/tiny.json'])).toEqual([expect.objectContaining({ path: '/id', rule: 'id-matches-file' })]);
  });

  test('statement-style: "should" in a title and "test that" in a description are reported', () => {
    const s = valid();
    s.title = 'the run should end at EOF';
    s.description = 'Test that the run ends.';
    expect(only(lint([s]), 'statement-style').map((i) => i.path)).toEqual(['/title', '/description']);
  });

  test('statement-style: words that merely contain "should" pass', () => {
    const s = valid();
    s.title = 'shoulder-season burn runs end at EOF';
    expect(lint([s])).toEqual([]);
  });

  test('spec-ref-resolves: a section missing from its document is reported at the section', () => {
    const s = valid();
    s.specRefs = [{ doc: 'adk-wire-format', section: '§5z' }, { doc: 'seed-003', section: 'No Such Heading' }];
    expect(only(lint([s]), 'spec-ref-resolves').map((i) => i.path)).toEqual(['/specRefs/0/section', '/specRefs/1/section']);
  });

  test('spec-ref-resolves: a whatwg-sse section must name a known rule', () => {
    const s = valid();
    s.specRefs = [{ doc: 'whatwg-sse', section: 'line endings' }, { doc: 'whatwg-sse', section: 'vibes' }];
    expect(only(lint([s]), 'spec-ref-resolves')).toEqual([expect.objectContaining({ path: '/specRefs/1/section', message: expect.stringMatching(/not a known WHATWG SSE rule/) as unknown })]);
  });

  test('fault-known: an unknown fault name is reported with the known ones', () => {
    const s = valid();
    s.faults = [{ name: 'crlf' }, { name: 'crfl' }];
    expect(only(lint([s]), 'fault-known')).toEqual([expect.objectContaining({ path: '/faults/1/name', message: expect.stringMatching(/unknown fault 'crfl'; known faults: crlf, split-every-byte/) as unknown })]);
  });

  test('variant-of-exists: a variant of a scenario not in the corpus is reported', () => {
    const s = valid();
    s.variantOf = 'missing_base';
    expect(lint([s])).toEqual([expect.objectContaining({ path: '/variantOf', rule: 'variant-of-exists' })]);
  });

  test('chunks-join-text: chunks that do not join to the text are reported', () => {
    const s = valid();
    s.upstream.steps[0].model.chunks = ['hello ', 'word'];
    expect(lint([s])).toEqual([expect.objectContaining({ path: '/upstream/steps/0/model/chunks', rule: 'chunks-join-text' })]);
  });

  test('tools-follow-calls: a tools step after a step without calls is reported', () => {
    const s = valid();
    s.upstream.steps.push({ tools: { author: 'assistant', responses: [{ name: 'x', response: {} }] } });
    s.expect.frames = 2;
    s.expect.completionPoint = 1;
    expect(lint([s])).toEqual([expect.objectContaining({ path: '/upstream/steps/1/tools', rule: 'tools-follow-calls' })]);
  });

  test('tools-follow-calls: a response count or name that differs from the calls is reported', () => {
    const s = valid();
    s.upstream.steps = [
      { model: { author: 'a', calls: [{ name: 'one', args: {} }, { name: 'two', args: {} }] } },
      { tools: { author: 'a', responses: [{ name: 'two', response: {} }] } },
      { model: { author: 'a', text: 'hello world' } },
    ];
    s.expect.frames = 3;
    s.expect.completionPoint = 2;
    expect(only(lint([s]), 'tools-follow-calls').map((i) => i.path)).toEqual(['/upstream/steps/1/tools/responses', '/upstream/steps/1/tools/responses/0/name']);
  });

  test('tool-results-match: an anthropic tool result for an unknown tool_use id is reported', () => {
    const s = valid();
    s.request.endpoint = '/v1/messages';
    s.upstream = { kind: 'anthropic-turn', messages: [{ blocks: [{ type: 'tool_use', id: 'T1', name: 't', input: {} }], toolResults: [{ toolUseId: 'T9' }] }] };
    s.expect = { status: 200, outcome: 'complete' };
    expect(lint([s])).toEqual([expect.objectContaining({ path: '/upstream/messages/0/toolResults/0/toolUseId', rule: 'tool-results-match' })]);
  });

  test('audit-valid: an audit event that breaks its schema or names another invocation is reported', () => {
    const s = valid();
    const event = { event_type: 'tool_response', event_id: 'evt_1', timestamp: '2025-12-27T10:30:05.234Z', correlation_id: 'e-other', agent: 'a', session_id: 's1', payload: { tool_name: 't' } };
    s.upstream.steps[0].audit = [event];
    const issues = only(lint([s]), 'audit-valid');
    expect(issues.map((i) => i.path)).toEqual(['/upstream/steps/0/audit/0/payload/status', '/upstream/steps/0/audit/0/correlation_id']);
  });

  test('audit-valid: a flat entry (seed 000 §2.2A dataclass, no payload) is judged by the dataclass form', () => {
    const s = valid();
    const flat = { event_type: 'tool_response', timestamp: '2025-12-27T10:30:05.234Z', agent: 'a', tool: 't', status: 'success', confidence: 0.9, data_sources: ['x'], reasoning_chain: [], invocation_id: 'e-other' };
    const { confidence: _dropped, ...noConfidence } = flat;
    s.upstream.steps[0].audit = [flat, noConfidence];
    expect(only(lint([s]), 'audit-valid').map((i) => i.path)).toEqual(['/upstream/steps/0/audit/0/invocation_id', '/upstream/steps/0/audit/1/confidence', '/upstream/steps/0/audit/1/invocation_id']);
  });

  test('renders: a renderer that throws is reported instead of crashing the lint', () => {
    const render = () => { throw new Error('boom'); };
    expect(lint([valid()], { render })).toEqual([expect.objectContaining({ rule: 'renders', message: expect.stringMatching(/boom/) as unknown })]);
  });

  test('expect-frames: a frame count that differs from the rendering is reported', () => {
    const s = valid();
    s.expect.frames = 2;
    expect(lint([s])).toEqual([expect.objectContaining({ path: '/expect/frames', rule: 'expect-frames', message: expect.stringMatching(/renderer produces 1 frames/) as unknown })]);
  });

  test('completion-point: a completion point at or past the last frame is reported', () => {
    const s = valid();
    s.expect.completionPoint = 1;
    expect(lint([s])).toEqual([expect.objectContaining({ path: '/expect/completionPoint', rule: 'completion-point' })]);
  });

  test('completion-point: without a renderer it is checked against expect.frames', () => {
    const s = valid();
    s.expect.completionPoint = 1;
    expect(rules(lint([s], { render: undefined }))).toEqual(['completion-point']);
  });

  test('expect-final-text: a final text that is not the last model text is reported', () => {
    const s = valid();
    s.expect.finalText = 'goodbye';
    expect(lint([s])).toEqual([expect.objectContaining({ path: '/expect/finalText', rule: 'expect-final-text' })]);
  });

  test('expect-error-frame: an error frame the rendering does not end with is reported', () => {
    const s = valid();
    s.upstream.steps.push({ errorFrame: { message: 'boom' } });
    s.expect = { status: 200, outcome: 'error', frames: 2, completionPoint: 1, errorFrame: { error: 'bang' } };
    expect(lint([s])).toEqual([expect.objectContaining({ path: '/expect/errorFrame/error', rule: 'expect-error-frame' })]);
  });

  test('outcome-consistent: http-error requires an http upstream with status >= 400, and back', () => {
    const a = valid('a_run');
    a.expect.outcome = 'http-error';
    const b = valid('b_run');
    b.upstream = { kind: 'http', status: 404, json: { error: 'Session not found: s1' } };
    b.expect = { status: 404, outcome: 'complete', frames: 0, completionPoint: null };
    expect(lint([a, b]).map((i) => [i.file, i.path, i.rule])).toEqual([
      ['/corpus/a_run.json', '/expect/outcome', 'outcome-consistent'],
      ['/corpus/b_run.json', '/expect/outcome', 'outcome-consistent'],
    ]);
  });

  test('outcome-consistent: hold-open needs a held-open upstream, and a cut run has no completion point', () => {
    const a = valid('a_run');
    a.expect.outcome = 'hold-open';
    const b = valid('b_run');
    b.expect.outcome = 'cut';
    expect(lint([a, b]).map((i) => [i.file, i.path])).toEqual([['/corpus/a_run.json', '/expect/outcome'], ['/corpus/b_run.json', '/expect/completionPoint']]);
  });
});

describe('lintScenarios: configuration', () => {
  let shared: string;
  beforeAll(() => {
    shared = mkdtempSync(join(tmpdir(), 'lint-shared-'));
    mkdirSync(join(shared, 'seeds'));
    mkdirSync(join(shared, 'research'));
    writeFileSync(join(shared, 'seeds', '003_abc.txt'), '# Plan\n## 3. Solution\n### 3.2. Example Scenario Flow:\n');
  });
  afterAll(() => rmSync(shared, { recursive: true, force: true }));

  test('a missing shared folder is reported once and skips only the spec references', () => {
    const s = valid();
    s.title = 'the run should end';
    const issues = lint([s], { sharedDir: join(shared, 'absent') });
    expect(rules(issues)).toEqual(['shared-docs-missing', 'statement-style']);
    expect(issues[0]?.message).toMatch(/does not exist; spec references were not resolved/);
  });

  test('a document absent from the shared folder is reported at the doc', () => {
    const s = valid();
    s.specRefs = [{ doc: 'seed-002', section: '2.1' }, { doc: 'seed-003', section: '3.2' }];
    expect(lint([s], { sharedDir: shared })).toEqual([expect.objectContaining({ path: '/specRefs/0/doc', message: expect.stringMatching(/no file 002_\*\.txt/) as unknown })]);
  });

  test('mismatched scenario and file lists are a programmer error', () => {
    expect(() => lintScenarios([valid()], [])).toThrow(/pass one file per scenario/);
  });

  test('frame and fault rules are skipped when no renderer or catalogue is given', () => {
    const s = valid();
    s.expect.frames = 7;
    s.expect.completionPoint = 3;
    s.faults = [{ name: 'anything' }];
    expect(lintScenarios([s], ['/corpus/tiny_run.json'])).toEqual([]);
  });
});

describe('resolveSection', () => {
  const doc = parseSections([
    '# Title',
    '## 2. Event Schema',
    '### 2.1 Confidence Tiers (Degraded Mode)',
    '### 2.2 Core Components',
    '#### B. Enhanced SSE Endpoint',
    '## 5. Scenario sequences',
    '**d. Four AgentTools in one turn** (`d.sse`)',
    '```',
    '# not a heading',
    '```',
    '## Q3: Does coordinator emit `proof_layer` field?',
  ].join('\n'));

  test.each([
    ['2.1', true], ['§2.1', true], ['2', true], ['2.', true], ['3', false], ['2.3', false],
    ['§5d', true], ['5D', true], ['§5e', false], ['§2.2B', true], ['2.2C', false],
    ['2.1 Confidence Tiers (Degraded Mode)', true], ['confidence tiers (degraded mode)', false], ['2.1 confidence tiers (degraded mode)', true],
    ['Q3: Does coordinator emit proof_layer field?', true], ['not a heading', false],
  ])('%s resolves: %s', (section, expected) => {
    expect(resolveSection(doc, section)).toBe(expected);
  });
});

describe('lintCorpus', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lint-corpus-'));
    writeFileSync(join(dir, 'tiny_run.json'), JSON.stringify(valid()));
    writeFileSync(join(dir, 'bad_json.json'), '{"id": ');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('load errors become issues and the good files are still linted', () => {
    const { issues, scenarios, fileCount } = lintCorpus(dir, { render: fakeRender });
    expect(fileCount).toBe(2);
    expect(scenarios.map((s) => s.id)).toEqual(['tiny_run']);
    expect(issues).toEqual([expect.objectContaining({ file: join(dir, 'bad_json.json'), rule: 'json-syntax', message: expect.stringMatching(/^line 1, column 8/) as unknown })]);
  });
});

describe('bad input never crashes the linter', () => {
  const seed = 20_260_512;

  test('arbitrary JSON values and mutated scenarios give issues, never exceptions', () => {
    console.log(`fast-check seed ${seed}`);
    const mutated = fc.tuple(fc.constantFrom('title', 'upstream', 'expect', 'specRefs', 'session', 'faults', 'dialect'), fc.jsonValue()).map(([key, value]) => ({ ...valid(), [key]: value }));
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), mutated), (value) => {
      const issues = lint([value]);
      expect(Array.isArray(issues)).toBe(true);
      for (const issue of issues) expect(typeof issue.message).toBe('string');
    }), { seed, numRuns: 300 });
  });

  test('a step mutated anywhere in a run script gives issues, never exceptions', () => {
    console.log(`fast-check seed ${seed + 1}`);
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom('model', 'tools', 'modelError', 'errorFrame', 'raw', 'silence', 'audit'), (value, kind) => {
      const s = valid();
      s.upstream.steps.push({ [kind]: value });
      expect(() => lint([s])).not.toThrow();
    }), { seed: seed + 1, numRuns: 300 });
  });
});
