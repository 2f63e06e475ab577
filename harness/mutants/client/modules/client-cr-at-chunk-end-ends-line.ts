/** Client mutant client-cr-at-chunk-end-ends-line (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-cr-at-chunk-end-ends-line');
