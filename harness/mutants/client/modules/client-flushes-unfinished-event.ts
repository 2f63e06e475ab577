/** Client mutant client-flushes-unfinished-event (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-flushes-unfinished-event');
