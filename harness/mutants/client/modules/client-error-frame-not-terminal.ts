/** Client mutant client-error-frame-not-terminal (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-error-frame-not-terminal');
