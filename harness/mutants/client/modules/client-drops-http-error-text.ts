/** Client mutant client-drops-http-error-text (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-drops-http-error-text');
