/** Client variant client-allowed-omits-done-record (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-allowed-omits-done-record');
