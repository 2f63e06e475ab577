/** Mutant transformer-1-1-no-suggested-actions (kills ABE-SCHEMA-002 under --spec 1.1): spec 1.1 events carry no content.suggested_actions list. */
import { mutant11 } from '../spec-1-1-mutations.ts';

export const createTransformer = mutant11('transformer-1-1-no-suggested-actions');
