/** Client mutant client-decoder-shared-across-runs (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-decoder-shared-across-runs');
