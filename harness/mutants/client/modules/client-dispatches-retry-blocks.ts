/** Client mutant client-dispatches-retry-blocks (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-dispatches-retry-blocks');
