/** Mutant transformer-narration-doubled (kills ABE-TEXT-001): a call turn's narration shows its streamed chunks, then the aggregated text that repeats them (adk-docs PR #2076). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-narration-doubled');
