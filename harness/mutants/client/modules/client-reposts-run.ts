/** Client mutant client-reposts-run (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-reposts-run');
