/** Mutant transformer-reads-on-after-error-frame (kills ABE-TERM-001, ABE-LIFE-006): after the error frame's ERROR the transformer reads on, and the frames adk-go streams after `event: error` become briefings after the terminal event. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-reads-on-after-error-frame');
