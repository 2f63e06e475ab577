/** Mutant transformer-no-degradation-notice (kills PL-TIER-002): no degradation_notice, whatever the tier. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-no-degradation-notice');
