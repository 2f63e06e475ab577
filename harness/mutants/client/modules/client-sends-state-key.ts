/** Client mutant client-sends-state-key (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-sends-state-key');
