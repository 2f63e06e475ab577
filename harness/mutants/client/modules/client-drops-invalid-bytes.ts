/** Client mutant client-drops-invalid-bytes (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-drops-invalid-bytes');
