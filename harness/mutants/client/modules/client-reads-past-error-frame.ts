/** Client mutant client-reads-past-error-frame (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-reads-past-error-frame');
