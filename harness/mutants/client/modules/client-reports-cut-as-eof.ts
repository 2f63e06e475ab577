/** Client mutant client-reports-cut-as-eof (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-reports-cut-as-eof');
