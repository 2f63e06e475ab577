/** Client mutant client-keeps-every-run (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-keeps-every-run');
