/** Mutant transformer-ignores-done (kills ABE-TERM-004): the [DONE] sentinel is ignored: the run waits for the end of input. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-ignores-done');
