import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaDocument } from '../schemas/registry.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Requirement, RequirementResult, RunResult } from './model.ts';
import { requirements } from './requirements/index.ts';
import { allParts, applyProfile, capabilityTags, checkProfile, isRehomed, notApplicable, profileRunners, profileScenarios, tagCapabilities, type Profile } from './profile.ts';
import type { PartRunner } from './targets/types.ts';
import { tally } from './verdict.ts';

import { scenarioDialects } from '../mock-adk/core/scenario-dialects.ts';
import type { Scenario } from '../schemas/types.ts';
const registry = [...requirements.values()];

/** A run where every requirement of the given parts passed, except the ones listed as failed. */
function resultOf(parts: RequirementResult['part'][], failed: string[] = []): RunResult {
  const reqs: RequirementResult[] = registry.map((r: Requirement) => ({
    ...r, provenBy: [], findings: failed.includes(r.id) ? [{ requirement: r.id, code: 'x', path: '/', message: 'failed' }] : [], scenarios: ['s'],
    status: !parts.includes(r.part) ? 'not-applicable' : failed.includes(r.id) ? 'failed' : 'passed',
  }));
  const gate = { level: 'must', untestedFails: true } as const;
  const mutants = { total: 0, killed: 0 };
  return {
    tool: { name: 'adk-conformance', version: '0.0.0' }, startedAt: '', finishedAt: '', durationMs: 0,
    target: { description: 'a gateway', parts }, gate, seed: 1, seedSource: 'given', scenarios: [],
    requirements: reqs, ...tally({ gate, requirements: reqs, scenarios: [], mutants }),
  };
}

const gatewayNoLegacy: Profile = { parts: ['gateway'], capabilities: { 'legacy-endpoints': false, 'audit-metadata': false }, reasons: { 'legacy-endpoints': 'never shipped', 'audit-metadata': 'no audit events' } };

describe('the capability map', () => {
  it('names exactly the capabilities of schemas/config.schema.json', () => {
    const doc = schemaDocument('config') as { definitions: { profile: { properties: { capabilities: { properties: Record<string, unknown> } } } } };
    expect(Object.keys(doc.definitions.profile.properties.capabilities.properties).sort()).toEqual([...tagCapabilities, 'dialects'].sort());
  });

  it.each(tagCapabilities.map((c) => [c]))('maps %s to tags that requirements of the registry carry', (capability) => {
    const covered = registry.filter((r) => capabilityTags[capability].some((t) => r.tags.includes(t)));
    expect(covered.length).toBeGreaterThan(0);
  });

  it('is the table docs/configuration.md shows', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'configuration.md'), 'utf8');
    for (const capability of tagCapabilities) {
      const row = new RegExp(`^\\| \`${capability}\` \\| ${capabilityTags[capability].map((t) => `\`${t}\``).join(', ')} \\|`, 'm');
      expect(doc, `docs/configuration.md needs a row | \`${capability}\` | ${capabilityTags[capability].map((t) => `\`${t}\``).join(', ')} | ...`).toMatch(row);
    }
  });
});

describe('applyProfile', () => {
  it('reports requirements outside the profile as not applicable with the declared reason', () => {
    const out = applyProfile(gatewayNoLegacy, resultOf(['gateway', 'transformer']));
    const byId = new Map(out.requirements.map((r) => [r.id, r]));
    expect(byId.get('GW-LEGACY-001')).toMatchObject({ status: 'not-applicable', reason: 'profile: capability legacy-endpoints is declared false (never shipped)' });
    expect(byId.get('GW-ENH-001')).toMatchObject({ status: 'not-applicable', reason: 'profile: capability audit-metadata is declared false (no audit events)' });
    expect(byId.get('ABE-SCHEMA-001')).toMatchObject({ status: 'not-applicable', reason: 'profile: the transformer part is not declared (the profile declares gateway only)' });
    expect(byId.get('GW-PASS-001')?.status).toBe('passed');
    expect(out.verdict).toBe('fully compliant');
    expect(out.target.description).toBe('a gateway (profile: parts gateway; legacy-endpoints=false, audit-metadata=false)');
  });

  it('keeps a failing MUST of a declared capability a failure (no false advertising)', () => {
    const out = applyProfile({ parts: ['gateway'], capabilities: { 'jwt-auth': true } }, resultOf(['gateway'], ['GW-AUTH-001']));
    expect(out.requirements.find((r) => r.id === 'GW-AUTH-001')?.status).toBe('failed');
    expect(out.verdict).toBe('non-compliant');
    expect(out.passed).toBe(false);
  });

  it('turns a failure outside the profile into not applicable, never into a pass', () => {
    const out = applyProfile(gatewayNoLegacy, resultOf(['gateway'], ['GW-LEGACY-002']));
    const r = out.requirements.find((x) => x.id === 'GW-LEGACY-002');
    expect(r).toMatchObject({ status: 'not-applicable', findings: [] });
    expect(out.counts.requirements.SHOULD['not-applicable']).toBeGreaterThanOrEqual(2);
  });

  it('refuses a profile that leaves nothing applicable', () => {
    expect(() => applyProfile({ parts: ['client'] }, resultOf(['gateway']))).toThrow(/leaves no applicable requirement/);
  });
});

describe('checkProfile', () => {
  it('accepts a well-formed profile', () => {
    expect(checkProfile(gatewayNoLegacy, registry)).toBe(gatewayNoLegacy);
  });

  it.each([
    [{ parts: ['gateway'], capabilities: { csrf: false } }, /reasons\/csrf is missing: say why/],
    [{ parts: ['gateway'], capabilities: { csrf: false }, reasons: { csfr: 'x' } }, /'csfr' is not a part or a capability \(did you mean 'csrf'\?\)/],
    [{ parts: ['gateway'], reasons: { gateway: 'x' } }, /'gateway' is a declared part/],
    [{ parts: ['transformer'], capabilities: { 'legacy-endpoints': true } }, /legacy-endpoints is declared true, but its requirements belong to gateway/],
    [{ parts: [] }, /is not a valid profile/],
    [{ parts: ['gateway'], capabilities: { sso: true } }, /is not a valid profile/],
  ])('refuses a profile that cannot mean what it says %#', (profile, message) => {
    expect(() => checkProfile(profile, registry, 'profile')).toThrow(message);
  });
});

describe('token-usage: a transformer that reports no usage can declare it (issue 28 §2)', () => {
  it('makes ABE-USAGE-001, which such a transformer leaves unobserved, not applicable with the declared reason', () => {
    const out = notApplicable({ parts: ['transformer'], capabilities: { 'token-usage': false }, reasons: { 'token-usage': 'our briefings carry no token counts' } }, registry);
    expect(registry.filter((r) => r.part === 'transformer' && out.has(r.id)).map((r) => r.id)).toEqual(['ABE-USAGE-001']);
    expect(out.get('ABE-USAGE-001')).toBe('profile: capability token-usage is declared false (our briefings carry no token counts)');
  });
});

describe('profile selection of scenarios and runners', () => {
  const corpus = loadScenarios().scenarios;

  it('keeps the scenarios of the declared dialects and narrows their other renderings', () => {
    const { scenarios, excluded } = profileScenarios({ parts: ['transformer'], capabilities: { dialects: ['adk-python'] }, reasons: { dialects: 'we run the Python server' } }, corpus);
    expect(scenarios.length).toBeGreaterThan(0);
    expect(scenarios.every((s) => s.dialect === 'adk-python' && scenarioDialects(s).every((d) => d === 'adk-python'))).toBe(true);
    expect(excluded.find((e) => e.id === 'framing_huge_event')?.reason).toMatch(/^replays adk-js; the profile declares adk-python only \(we run the Python server\)$/);
    expect(new Set([...scenarios.filter((s) => !isRehomed(s)), ...excluded].map((s) => s.id)).size).toBe(corpus.length);
  });

  it('rehomes an unpinned run of an undeclared dialect for the transformer only, so the held-open run (ABE-TERM-003) is exercised in the dialect kept (issue 28 §1)', () => {
    const { scenarios, excluded } = profileScenarios({ parts: ['transformer'], capabilities: { dialects: ['adk-python'] }, reasons: { dialects: 'we run the Python server' } }, corpus);
    const held = scenarios.find((s) => s.id === 'missing_done_hold_open');
    expect(held).toMatchObject({ dialect: 'adk-python', rehomedFrom: 'adk-js', expect: { outcome: 'hold-open', completionPoint: 2 } });
    expect(excluded.find((e) => e.id === 'plain_text')?.reason).toBe('replays adk-js; the profile declares adk-python only (we run the Python server); the transformer is fed its adk-python rendering instead');
    // Where the servers write a different number of frames, a final-frame completion point moves to the other's final frame.
    const streamed = scenarios.find((s) => s.id === 'cedar_creek_briefing_streaming');
    const original = corpus.find((s) => s.id === 'cedar_creek_briefing_streaming');
    expect(original?.expect.completionPoint).toBe(15);
    expect(streamed?.expect.completionPoint).toBe(14);
    const runners = profileRunners({ parts: ['transformer', 'gateway'] }, [runner('gateway'), runner('transformer')]);
    expect(runners.map((r) => [r.part, r.applies(held as Scenario)])).toEqual([['gateway', false], ['transformer', true]]);
  });

  const runner = (part: PartRunner['part']): PartRunner => ({ part, description: part, applies: () => true, runScenario: async () => ({ outcomes: [], timeline: [] }) });

  it('drops the runners of undeclared parts', () => {
    expect(profileRunners({ parts: ['gateway'] }, [runner('gateway'), runner('transformer')]).map((r) => r.part)).toEqual(['gateway']);
  });

  it('refuses a declared part the target does not provide', () => {
    expect(() => profileRunners({ parts: ['gateway', 'normalizer'] }, [runner('gateway')])).toThrow(/declares normalizer, but the target provides only gateway/);
  });

  it('knows every part of the model', () => {
    expect([...new Set(registry.map((r) => r.part))].every((p) => allParts.includes(p))).toBe(true);
  });

  it('leaves nothing applicable for requirements of parts the profile lacks', () => {
    const outside = notApplicable({ parts: ['normalizer'] }, registry);
    expect(registry.filter((r) => r.part === 'normalizer').every((r) => !outside.has(r.id))).toBe(true);
    expect(registry.filter((r) => r.part !== 'normalizer').every((r) => outside.has(r.id))).toBe(true);
  });
});
