/** Client mutant client-ends-at-any-agents-answer (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-ends-at-any-agents-answer');
