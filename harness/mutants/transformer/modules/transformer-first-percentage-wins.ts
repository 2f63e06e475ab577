/** Mutant transformer-first-percentage-wins (kills PL-CONF-002): the first percentage of the text is taken as its confidence. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-first-percentage-wins');
