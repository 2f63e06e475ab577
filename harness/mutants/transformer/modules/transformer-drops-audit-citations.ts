/** Mutant transformer-drops-audit-citations (kills PL-CIT-001): audit-based proof layers cite nothing. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-drops-audit-citations');
