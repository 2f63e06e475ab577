/** Mutant transformer-default-confidence-75 (kills PL-CONF-003): every INSIGHT or ALERT whose data states no confidence gets 0.75 (with a tier-2 notice), wherever the lifecycle puts the event. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-default-confidence-75');
