/** Client variant client-allowed-snake-case (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-allowed-snake-case');
