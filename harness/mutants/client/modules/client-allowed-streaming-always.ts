/** Client variant client-allowed-streaming-always (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-allowed-streaming-always');
