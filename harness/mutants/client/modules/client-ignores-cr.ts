/** Client mutant client-ignores-cr (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-ignores-cr');
