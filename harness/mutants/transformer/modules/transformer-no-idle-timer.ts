/** Mutant transformer-no-idle-timer (kills ABE-TERM-003): no idle timer: a held-open connection completes only when the input ends. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-no-idle-timer');
