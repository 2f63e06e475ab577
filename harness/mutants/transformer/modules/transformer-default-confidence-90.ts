/** Mutant transformer-default-confidence-90 (kills PL-CONF-003): a text that states no confidence gets 0.90 (seed 001's fallback). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-default-confidence-90');
