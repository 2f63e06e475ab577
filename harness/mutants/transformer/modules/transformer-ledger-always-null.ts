/** Mutant transformer-ledger-always-null (kills PL-LEDGER-001): confidence_ledger is always null (seed 000 §1.1's gap). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-ledger-always-null');
