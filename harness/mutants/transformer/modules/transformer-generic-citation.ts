/** Mutant transformer-generic-citation (kills PL-CIT-003): a proof layer that found no citation cites "Data from fixtures". */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-generic-citation');
