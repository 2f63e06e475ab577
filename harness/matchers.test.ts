import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { adkMatchers, runConformanceSuite } from './matchers.ts';
import type { CheckOutcome } from './model.ts';
import { referenceTransformerModule } from './targets/transformer/runner.ts';

const event = {
  event_id: '0b7e0d3c-5a0e-4f6e-9d1e-6c2f9a8b7c61', correlation_id: 's1', parent_event_id: null, type: 'INSIGHT',
  source_agent: 'coordinator', content: { summary: 'The fire is contained.' }, proof_layer: { confidence: 0.92, reasoning_chain: [], citations: [] },
};

const outcome = (status: CheckOutcome['status'], requirement = 'ABE-TERM-001'): CheckOutcome => ({
  requirement, scenario: 'plain_text', status,
  findings: status === 'failed' ? [{ requirement, code: 'terminal-missing', path: 'output', message: 'no terminal event', replay: 'npx adk-conformance run --grep plain_text --seed 1' }] : [],
  ...(status === 'untested' ? { reason: 'no output' } : {}),
});

describe('toBeValidAgentBriefingEvent', () => {
  it('accepts a seed 002 event and rejects one without its required fields', () => {
    expect(event).toBeValidAgentBriefingEvent();
    expect({ ...event, type: 'NOTICE' }).not.toBeValidAgentBriefingEvent();
  });

  it('names every schema error with its JSON pointer', () => {
    const result = adkMatchers.toBeValidAgentBriefingEvent({ ...event, content: {}, proof_layer: { confidence: 92 } });
    expect(result.pass).toBe(false);
    expect(result.message()).toContain('/content');
    expect(result.message()).toContain('/proof_layer/confidence');
  });

  it('rejects any confidence outside 0..1 (generated, fast-check seed 20240601)', () => {
    const seed = 20240601;
    console.log(`fast-check seed ${seed}`);
    fc.assert(fc.property(fc.oneof(fc.double({ min: 1.0001, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: -0.0001, noNaN: true })), (c) => {
      return !adkMatchers.toBeValidAgentBriefingEvent({ ...event, proof_layer: { confidence: c } }).pass;
    }), { seed, numRuns: 100 });
  });
});

describe('toSatisfyRequirement', () => {
  it('passes outcomes that were exercised and never failed', () => {
    expect([outcome('passed'), outcome('untested')]).toSatisfyRequirement('ABE-TERM-001');
  });

  it('fails outcomes that failed, listing the findings with their replay line', () => {
    const result = adkMatchers.toSatisfyRequirement([outcome('passed'), outcome('failed')], 'ABE-TERM-001');
    expect(result.pass).toBe(false);
    expect(result.message()).toContain('replay: npx adk-conformance run --grep plain_text --seed 1');
  });

  it('never passes a requirement that was only untested or not exercised', () => {
    expect([outcome('untested')]).not.toSatisfyRequirement('ABE-TERM-001');
    expect([outcome('passed', 'ABE-ID-001')]).not.toSatisfyRequirement('ABE-TERM-001');
  });

  it('throws on an unknown requirement id, saying where the ids are', () => {
    expect(() => adkMatchers.toSatisfyRequirement([], 'ABE-NOPE-999')).toThrow(/docs\/requirements\.md/);
  });
});

describe('runConformanceSuite', () => {
  it('certifies a transformer module inside a vitest run and returns the RunResult', async () => {
    const result = await runConformanceSuite({ transformer: { module: referenceTransformerModule }, grep: ['plain_text', 'tool_error', 'missing_done_eof'] });
    expect(result.target.parts).toEqual(['transformer']);
    // A grep naming scenarios runs those scenarios and no probe (docs/harness.md).
    expect(result.scenarios.map((s) => s.scenario).sort()).toEqual(['missing_done_eof', 'plain_text', 'tool_error']);
    expect(result).toSatisfyRequirement('ABE-TERM-001');
    expect(result).toSatisfyRequirement('ABE-SCHEMA-001');
    expect(result).toSatisfyRequirement('PL-CONF-004');
    expect(result.requirements.find((r) => r.id === 'GW-HDR-001')?.status ?? 'not-applicable').toBe('not-applicable');
  }, 30_000);
});
