/** Client mutant client-drops-event-field (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-drops-event-field');
