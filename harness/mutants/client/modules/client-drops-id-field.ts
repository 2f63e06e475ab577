/** Client mutant client-drops-id-field (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-drops-id-field');
