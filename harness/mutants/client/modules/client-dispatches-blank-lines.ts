/** Client mutant client-dispatches-blank-lines (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-dispatches-blank-lines');
