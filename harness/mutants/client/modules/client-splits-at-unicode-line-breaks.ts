/** Client mutant client-splits-at-unicode-line-breaks (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-splits-at-unicode-line-breaks');
