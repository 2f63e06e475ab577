/**
 * The one normative ADK → AgentBriefingEvent mapping, as data (briefing-mapping.json, schema
 * schemas/briefing-mapping.schema.json). The reference transformer, the harness's checks and its
 * independent expected model are each tested against its worked examples (test/mapping.test.ts),
 * and docs/briefing-mapping.md is generated from it (harness/mapping/doc.ts).
 */
import { join } from 'node:path';
import { packageRoot } from '../../core/package-root.ts';
import { readFileSync } from 'node:fs';
import { assertValid } from '../../schemas/registry.ts';
import type { BriefingMapping, MappingExample, MappingRule } from './types.ts';

export const mappingFile: string = join(packageRoot, 'harness', 'mapping', 'briefing-mapping.json');

let cached: BriefingMapping | undefined;

/** The mapping, schema-checked; a rule id used twice is refused (ids are never reused). */
export function loadMapping(): BriefingMapping {
  if (cached) return cached;
  const value: unknown = JSON.parse(readFileSync(mappingFile, 'utf8'));
  assertValid('briefing-mapping', value, mappingFile);
  const seen = new Set<string>();
  for (const rule of value.sections.flatMap((s) => s.rules)) {
    if (seen.has(rule.id)) throw new Error(`${mappingFile}: rule id ${rule.id} is used twice; give the new rule a new id`);
    seen.add(rule.id);
  }
  cached = value;
  return value;
}

export function mappingRules(mapping: BriefingMapping = loadMapping()): MappingRule[] {
  return mapping.sections.flatMap((s) => s.rules);
}

/** Every worked example with a stable id: `<rule id>#<n>` (1-based). */
export function mappingExamples(mapping: BriefingMapping = loadMapping()): Array<{ id: string; rule: MappingRule; example: MappingExample }> {
  return mappingRules(mapping).flatMap((rule) => (rule.examples ?? []).map((example, i) => ({ id: `${rule.id}#${i + 1}`, rule, example })));
}

/** A scenario id for an example (`mapping_map_err_001_1`): the app name the mock serves it under. */
export function exampleScenarioId(exampleId: string): string {
  return `mapping_${exampleId.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
}
