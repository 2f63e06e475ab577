/** Client mutant client-keeps-bom (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-keeps-bom');
