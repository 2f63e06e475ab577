/** Client mutant client-reserializes-json (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-reserializes-json');
