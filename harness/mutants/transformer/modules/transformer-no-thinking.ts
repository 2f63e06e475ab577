/** Mutant transformer-no-thinking (kills ABE-LIFE-001): no THINKING status is emitted. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-no-thinking');
