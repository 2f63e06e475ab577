/** Client mutant client-sends-snake-case (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-sends-snake-case');
