/** Client variant client-allowed-no-streaming-key (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-allowed-no-streaming-key');
