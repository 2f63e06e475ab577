/** Client mutant client-naive-double-newline-split (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-naive-double-newline-split');
