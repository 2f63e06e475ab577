/** Client mutant client-keeps-leading-space (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-keeps-leading-space');
