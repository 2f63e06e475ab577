/** Client mutant client-decodes-without-stream (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-decodes-without-stream');
