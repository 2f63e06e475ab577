/** Mutant transformer-ignores-regulatory-basis (kills PL-CIT-002): **Regulatory Basis:** lines are not cited. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-ignores-regulatory-basis');
