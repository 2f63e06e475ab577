/** Client mutant client-ignores-done-sentinel (harness/mutants/client/mutate.ts). */
import { clientMutant } from '../mutate.ts';

export const createClient = clientMutant('client-ignores-done-sentinel');
