/** Mutant transformer-reads-nested-audit-only (kills PL-CONF-001, PL-CIT-001, PL-REASON-001, PL-LEDGER-001): audit entries read only under `payload`, so a flat entry gives nothing. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-reads-nested-audit-only');
