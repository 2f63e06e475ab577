/** Mutant transformer-emits-partial-chunks (kills ABE-ATOMIC-001): every streamed chunk is also emitted as an INSIGHT. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-emits-partial-chunks');
