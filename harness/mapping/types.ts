/**
 * The mapping's types, from schemas/briefing-mapping.schema.json.
 */
import type { BriefingMapping } from '../../schemas/types.ts';

export type { BriefingMapping };
export type MappingSection = BriefingMapping['sections'][number];
export type MappingRule = MappingSection['rules'][number];
export type MappingExample = NonNullable<MappingRule['examples']>[number];
export type OutlineEntry = MappingExample['outline'][number];
