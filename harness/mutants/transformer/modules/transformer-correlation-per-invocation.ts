/** Mutant transformer-correlation-per-invocation: see long-lived-mutations.ts. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-correlation-per-invocation');
