/** Client mutant client-comment-resets-event (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-comment-resets-event');
