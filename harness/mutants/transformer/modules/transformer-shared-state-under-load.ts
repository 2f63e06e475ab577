/** Mutant transformer-shared-state-under-load: see long-lived-mutations.ts. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-shared-state-under-load');
