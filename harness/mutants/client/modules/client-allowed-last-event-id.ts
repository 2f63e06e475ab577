/** Client variant client-allowed-last-event-id (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-allowed-last-event-id');
