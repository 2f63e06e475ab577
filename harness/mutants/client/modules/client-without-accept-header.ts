/** Client mutant client-without-accept-header (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-without-accept-header');
