/** Mutant transformer-first-percentage-wins-unattributed (kills PL-CONF-002, ABE-SRC-001, ABE-LIFE-008): the first percentage of the text is its confidence, and the final answer names a briefing service as its source_agent, so neither the outline nor the lifecycle leads to it. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-first-percentage-wins-unattributed');
