/** Mutant transformer-audit-confidence-plus-margin (kills PL-CONF-001): the audit trail's confidence is raised by 0.03. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-audit-confidence-plus-margin');
