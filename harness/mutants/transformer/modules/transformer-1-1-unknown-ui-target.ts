/** Mutant transformer-1-1-unknown-ui-target (kills ABE-SCHEMA-002 under --spec 1.1): status_update events bind to a UI target the console does not know (toast). */
import { mutant11 } from '../spec-1-1-mutations.ts';

export const createTransformer = mutant11('transformer-1-1-unknown-ui-target');
