/** Client mutant client-strips-every-bom (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-strips-every-bom');
