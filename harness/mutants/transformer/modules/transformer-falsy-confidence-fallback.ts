/** Mutant transformer-falsy-confidence-fallback (kills PL-CONF-001, PL-LEDGER-001): a tool_response confidence of 0.0 is taken for none and 0.90 put instead. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-falsy-confidence-fallback');
