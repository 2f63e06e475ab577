/** Mutant transformer-state-delta-as-answer (kills ABE-FINAL-001): a callback's state-only event, which is_final_response() calls final, becomes an empty INSIGHT (adk-python #2992, #7078). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-state-delta-as-answer');
