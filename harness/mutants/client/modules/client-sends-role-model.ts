/** Client mutant client-sends-role-model (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-sends-role-model');
