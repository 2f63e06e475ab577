/** Mutant transformer-keeps-its-chain: see long-lived-mutations.ts. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-keeps-its-chain');
