/**
 * The one normative mapping (harness/mapping/briefing-mapping.json) against the three things that
 * implement it: every worked example through the reference transformer, through the harness's
 * transformer checks (the runner with the reference module, on the real mock) and through the
 * harness's independent expected model (harness/arbitraries/model.ts) where the run is one it
 * models. Any disagreement, between the example and one of them or between two of them, fails
 * here; docs/briefing-mapping.md must be the page the data generates.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specDocText, type SpecDoc } from '../core/spec-docs.ts';
import { expectFor } from '../harness/arbitraries/model.ts';
import type { GenScenario } from '../harness/arbitraries/types.ts';
import { exampleScenarioId, loadMapping, mappingExamples, mappingRules } from '../harness/mapping/index.ts';
import { mappingDocFile, renderMappingDoc } from '../harness/mapping/doc.ts';
import { outlineDifference, outlineOf } from '../harness/mapping/outline.ts';
import { renderExample, type RenderedExample } from '../harness/mapping/render-example.ts';
import { requirements } from '../harness/requirements/index.ts';
import { createTransformerRunner, referenceTransformerModule } from '../harness/targets/transformer/runner.ts';
import { startMock, type RunningMock } from '../mock-adk/server/start.ts';
import { createTransformer } from '../reference-impl/transformer/index.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Scenario } from '../schemas/types.ts';

const mapping = loadMapping();
const corpus = new Map(loadScenarios().scenarios.map((s) => [s.id, s]));
const examples = mappingExamples(mapping).map((e) => ({ ...e, rendered: renderExample(e.example, exampleScenarioId(e.id), corpus) }));

/** The example as a scenario whose expectation is the example: what the harness's checks judge. */
function asCheckedScenario(e: (typeof examples)[number]): Scenario {
  const { example, rendered } = e;
  const frames = rendered.frames.length;
  const outcome = example.outcome ?? 'complete';
  const base = rendered.scenario as unknown as Record<string, unknown>;
  return {
    ...base,
    id: exampleScenarioId(e.id),
    expect: {
      ...(base.expect as Record<string, unknown>),
      status: 200, outcome, frames, completionPoint: outcome === 'cut' ? null : frames - 1,
      ...(example.finalText !== undefined ? { finalText: example.finalText } : {}),
      briefings: example.outline,
    },
  } as unknown as Scenario;
}

const modelled = new Set(['model', 'tools', 'modelError', 'errorFrame']);
const modelKeys: Record<string, Set<string>> = {
  model: new Set(['author', 'text', 'chunks', 'calls', 'truncate', 'usage', 'finishReason']),
  tools: new Set(['author', 'responses', 'transferToAgent']),
  modelError: new Set(['author', 'errorCode', 'errorMessage']),
  errorFrame: new Set(['message', 'style']),
};
/**
 * A tool result the model can read: it parses the proof lines the generator writes
 * (`**Confidence:** 92%`, `**Source:** a, b`) and no other form (seed 001's `High (90%)`,
 * `**Regulatory Basis:**`, qualified sources are the reference's and the checks' business).
 */
function plainProof(response: unknown): boolean {
  const text = typeof response === 'object' && response !== null ? (response as { result?: unknown }).result : undefined;
  if (typeof text !== 'string') return true;
  return text.split('\n').every((line) => !/confidence|source|basis/i.test(line) || /^\*\*Confidence:\*\* \d+%$/.test(line) || /^\*\*Source:\*\* [^:;]+$/.test(line));
}

/** Whether the independent model speaks about this run: only the step kinds and fields it models, no audit, no faults. */
function modelCovers(r: RenderedExample): boolean {
  const u = r.scenario.upstream as { kind: string; steps?: Array<Record<string, unknown>> };
  if (u.kind !== 'run' || r.enhanced || (r.scenario.faults ?? []).length > 0) return false;
  return (u.steps ?? []).every((step) => {
    const kinds = Object.keys(step);
    if (kinds.length !== 1 || !modelled.has(kinds[0]!)) return false;
    const body = step[kinds[0]!] as Record<string, unknown>;
    const responses = Array.isArray(body.responses) ? (body.responses as Array<{ response?: unknown }>) : [];
    return Object.keys(body).every((k) => modelKeys[kinds[0]!]!.has(k)) && responses.every((x) => plainProof(x.response));
  });
}

describe('the mapping data', () => {
  it('is schema-valid, with unique rule ids, and every rule names known requirements', () => {
    const rules = mappingRules(mapping);
    expect(rules.length).toBeGreaterThan(25);
    for (const r of rules) for (const id of r.requirements) expect(requirements.has(id), `${r.id} names ${id}`).toBe(true);
  });

  it('quotes every rule\'s source verbatim', () => {
    for (const r of mappingRules(mapping)) {
      const text = specDocText(r.source.doc as SpecDoc);
      expect(text, `${r.id}: ${r.source.doc} is not readable`).toBeDefined();
      expect(text!.includes(r.source.quote), `${r.id}: the quote is not in ${r.source.doc}: ${r.source.quote}`).toBe(true);
    }
  });

  it('docs/briefing-mapping.md is the page the data generates (npm run gen:mapping)', () => {
    expect(readFileSync(mappingDocFile, 'utf8') === renderMappingDoc(), 'docs/briefing-mapping.md is stale: run npm run gen:mapping').toBe(true);
  });

  it('has worked examples for the rules that decide a disputed case', () => {
    const withExamples = new Set(examples.map((e) => e.rule.id));
    for (const id of ['MAP-ERR-001', 'MAP-PROOF-004', 'MAP-LIFE-010', 'MAP-STREAM-001']) expect(withExamples.has(id), id).toBe(true);
    expect(examples.length).toBeGreaterThan(30);
  });
});

describe(`the reference transformer gives every worked example's outline (${examples.length} examples)`, () => {
  for (const e of examples) {
    it(`${e.id}: ${e.example.title}`, () => {
      const t = createTransformer({ sessionId: e.rendered.scenario.session.sessionId, enhanced: e.rendered.enhanced });
      for (const d of e.rendered.frames) t.pushData(d);
      const events = t.end();
      expect(outlineDifference(e.example.outline, outlineOf(events))).toBeUndefined();
      if (e.example.finalText !== undefined) expect(events.at(-1)?.content.detail).toContain(e.example.finalText);
      if (e.example.ledger) {
        const ledgers = events.map((x) => x.proof_layer?.confidence_ledger).filter(Boolean);
        const at = e.example.ledgerOf;
        expect(at === undefined ? ledgers.at(-1) : events[at]?.proof_layer?.confidence_ledger).toEqual(e.example.ledger);
      }
    });
  }
});

describe('the independent expected model agrees with every example it models', () => {
  const covered = examples.filter((e) => modelCovers(e.rendered));
  it(`models at least the run-script examples and the plain corpus runs (${covered.length} of ${examples.length})`, () => {
    expect(covered.length).toBeGreaterThanOrEqual(12);
    expect(covered.map((e) => e.id)).toEqual(expect.arrayContaining(['MAP-ERR-001#1', 'MAP-ERR-001#2']));
  });
  for (const e of covered) {
    it(`${e.id}: the model's outline is the example's`, () => {
      const s = e.rendered.scenario as unknown as GenScenario;
      const model = expectFor({ ...s, request: { ...s.request, streaming: e.rendered.streaming } });
      expect(model.outcome).toBe(e.example.outcome ?? 'complete');
      // The model fixes fewer keys than the example: every key it gives must agree, entry by entry.
      const difference = outlineDifference(model.briefings.map((b) => ({ ...b })), e.example.outline as Array<Record<string, unknown>>);
      expect(difference, `model ${JSON.stringify(model.briefings)}`).toBeUndefined();
      expect(model.briefings.length).toBe(e.example.outline.length);
    });
  }
});

/** The same example with one fixed key changed: the checks must refuse the reference's (right) output against it. */
function wrongly(s: Scenario, e: (typeof examples)[number]): Scenario | undefined {
  const outline = e.example.outline.map((o) => ({ ...o }));
  const i = outline.findIndex((o) => typeof o.confidence === 'number');
  if (i >= 0) outline[i]!.confidence = Math.round(((outline[i]!.confidence as number) + 0.07) * 100) / 100 % 1;
  else outline[outline.length - 1]!.source_agent = 'nobody_at_all';
  return { ...s, id: `${s.id}_wrong`, expect: { ...(s.expect as object), briefings: outline } } as unknown as Scenario;
}

describe('the harness\'s transformer checks pass the reference on every worked example, and refuse it against a changed one', () => {
  let mock: RunningMock;
  const right = examples.map(asCheckedScenario);
  const wrong = examples.map((e, i) => wrongly(right[i]!, e)!);
  const scenarios = right;
  beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios: [...right, ...wrong], logger: false }); });
  afterAll(async () => { await mock.close(); });

  for (const [i, e] of examples.entries()) {
    it(`${e.id}: no check fails, and the outline check passed`, async () => {
      const runner = createTransformerRunner({ module: referenceTransformerModule }, { idleMs: 300, toleranceMs: 600 });
      const env = { mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 20_000 };
      await runner.start?.(env);
      try {
        const { outcomes } = await runner.runScenario(scenarios[i]!, { ...env, signal: new AbortController().signal });
        expect(outcomes.filter((o) => o.status === 'failed').flatMap((o) => o.findings.map((f) => `${o.requirement} ${f.path}: ${f.message}`))).toEqual([]);
        expect(outcomes.some((o) => o.status === 'passed')).toBe(true);
      } finally {
        await runner.stop?.();
      }
    });
  }

  for (const [i, e] of examples.entries()) {
    it(`${e.id}: a changed outline (a confidence, or the last source agent) fails the reference`, async () => {
      const runner = createTransformerRunner({ module: referenceTransformerModule }, { idleMs: 300, toleranceMs: 600 });
      const env = { mockUrl: mock.url, seed: 1, scenarioTimeoutMs: 20_000 };
      await runner.start?.(env);
      try {
        const { outcomes } = await runner.runScenario(wrong[i]!, { ...env, signal: new AbortController().signal });
        expect(outcomes.some((o) => o.status === 'failed')).toBe(true);
      } finally {
        await runner.stop?.();
      }
    });
  }
});
