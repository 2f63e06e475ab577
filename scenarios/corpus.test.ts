import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { mockLintOptions } from '../cli/commands/lint-scenarios.ts';
import { lintCorpus } from './lint.ts';
import { defaultScenariosDir, loadScenarios, type Scenario } from './loader.ts';

const { scenarios, errors } = loadScenarios();
const byId = new Map(scenarios.map((s) => [s.id, s]));

const requiredIds = [
  'cedar_creek_briefing', 'cedar_creek_briefing_streaming',
  'transfer_to_specialist',
  'trail_damage_audit',
  'plain_text', 'plain_text_streaming', 'single_tool_call', 'single_tool_call_streaming', 'stream_cut_while_partial',
  'session_not_found', 'error_frame_adk_js', 'error_frame_adk_python', 'error_frame_python_legacy_invalid_json', 'model_error_event', 'tool_error', 'empty_data_frame',
  'missing_done_eof', 'missing_done_hold_open', 'missing_done_closed_without_final', 'done_sentinel',
  'index_reuse_turn', 'index_reuse_seed_flow',
];

const families: Array<Scenario['family']> = ['delegation', 'transfer', 'audit', 'streaming', 'errors', 'missing-done', 'index-reuse', 'framing'];

function runSteps(s: Scenario | undefined) {
  if (!s || s.upstream.kind !== 'run') throw new Error(`${s?.id ?? 'scenario'} has no run upstream`);
  return s.upstream;
}

describe('the shipped corpus', () => {
  test('every file loads', () => {
    expect(errors).toEqual([]);
  });

  test('the corpus lints clean with the mock\'s renderer and fault catalogue', () => {
    const { issues } = lintCorpus(undefined, mockLintOptions());
    expect(issues.map((i) => `${i.file}: ${i.path}: ${i.message} (${i.rule})`)).toEqual([]);
  });

  test.each(requiredIds)('scenario %s exists', (id) => {
    expect(byId.has(id)).toBe(true);
  });

  test.each(families)('family %s has at least 3 scenarios', (family) => {
    expect(scenarios.filter((s) => s.family === family).length).toBeGreaterThanOrEqual(3);
  });

  test('the audit family uses all 7 audit event types, tool_error included', () => {
    const types = new Set(scenarios.filter((s) => s.family === 'audit').flatMap((s) => runSteps(s).steps.flatMap((step) => (step.audit ?? []).map((a) => a.event_type))));
    expect([...types].sort()).toEqual(['confidence_calc', 'data_load', 'mcp_fetch', 'reasoning_step', 'tool_error', 'tool_invocation', 'tool_response']);
  });

  test('docs/scenarios.md lists every scenario, and no other', () => {
    const doc = readFileSync(join(defaultScenariosDir, '..', 'docs', 'scenarios.md'), 'utf8');
    const corpus = doc.slice(doc.indexOf('## The corpus by family'));
    const listed = [...corpus.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(scenarios.map((s) => s.id).sort());
  });

  test('scenarios waiting longer than a proxy idle timeout are tagged slow', () => {
    for (const s of scenarios) {
      const waits = s.upstream.kind === 'run' ? s.upstream.steps.map((step) => step.silence?.ms ?? 0) : [];
      const faultWaits = (s.faults ?? []).map((f) => Number((f as Record<string, unknown>)['ms'] ?? 0));
      if (Math.max(0, ...waits, ...faultWaits) >= 30_000) expect(s.tags, s.id).toContain('slow');
    }
  });
});

describe('cedar_creek_briefing replays seed 001', () => {
  const s = byId.get('cedar_creek_briefing');
  const upstream = runSteps(s);

  test('it is the Python capture with the seed\'s invocation id and timestamps', () => {
    expect(s?.dialect).toBe('adk-python');
    expect(upstream.invocationId).toBe('e-a3237f79-5ffa-4fb8-b6b3-f71faa15d712');
    const stamps = upstream.ids?.timestamps ?? [];
    expect([stamps[0], stamps[1], stamps[stamps.length - 1]]).toEqual([1767081391.059711, 1767081397.518132, 1767081419.786536]);
  });

  test('one event calls the four specialists with the seed\'s request argument', () => {
    const calls = upstream.steps[0]?.model?.calls ?? [];
    expect(calls.map((c) => c.name)).toEqual(['burn_analyst', 'trail_assessor', 'cruising_assistant', 'nepa_advisor']);
    expect(calls.every((c) => JSON.stringify(c.args) === '{"request":"fire_id:cedar-creek-2022"}')).toBe(true);
  });

  test('the merged results carry the seed\'s confidence and source lines', () => {
    const results = (upstream.steps[1]?.tools?.responses ?? []).map((r) => String((r.response as { result?: unknown }).result));
    expect(results[0]).toContain('**Confidence:** 92%\n**Source:** MTBS, Imagery date: 2022-09-15');
    expect(results[1]).toContain('**Confidence:** 90%\n**Source:** Cedar Creek field assessment 2022-10-25');
    expect(results[2]).toContain('**Confidence:** 91%\n**Source:** Cedar Creek timber plot data, PNW salvage deterioration models, Regional market analysis 2025');
    expect(results[3]).toContain('**Confidence:** High (95%) - Direct CFR and FSM citations');
    expect(results[3]).toContain('**Regulatory Basis:** 36 CFR 220.6(e)(13)');
  });

  test('a two-call follow-up round precedes the synthesis, which ends with STOP and the seed\'s text', () => {
    expect(upstream.steps[2]?.model?.calls).toHaveLength(2);
    expect(upstream.steps[3]?.tools?.responses).toHaveLength(2);
    expect(String((upstream.steps[3]?.tools?.responses[0]?.response as { result?: unknown }).result)).toContain('High (90%)');
    const final = upstream.steps[4]?.model;
    expect(final?.finishReason).toBe('STOP');
    expect(final?.text).toMatch(/^\*\*Fire Severity:\*\* \.\.\. \(Confidence: 92%\)[\s\S]*\*\*Overall Confidence:\*\* 90%[\s\S]*\*\*Recommended Actions:\*\*/);
  });

  test('the expected briefings are four specialist insights and a COMPLETE insight at 0.90', () => {
    const briefings = s?.expect.briefings ?? [];
    expect(briefings.slice(0, 4).map((b) => [b.source_agent, b.confidence])).toEqual([['burn_analyst', 0.92], ['trail_assessor', 0.9], ['cruising_assistant', 0.91], ['nepa_advisor', 0.95]]);
    expect(briefings[briefings.length - 1]).toMatchObject({ type: 'INSIGHT', state: 'COMPLETE', confidence: 0.9 });
  });
});
