/** Client mutant client-waits-for-eof (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-waits-for-eof');
