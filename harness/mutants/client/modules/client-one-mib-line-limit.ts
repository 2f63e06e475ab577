/** Client mutant client-one-mib-line-limit (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-one-mib-line-limit');
