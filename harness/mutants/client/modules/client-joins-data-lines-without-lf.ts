/** Client mutant client-joins-data-lines-without-lf (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-joins-data-lines-without-lf');
