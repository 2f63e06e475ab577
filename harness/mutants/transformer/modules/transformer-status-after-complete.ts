/** Mutant transformer-status-after-complete (kills ABE-TERM-001): a 'run finished' STATUS follows the terminal event. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-status-after-complete');
