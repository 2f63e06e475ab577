/** Mutant transformer-final-answer-as-status (kills ABE-LIFE-004, ABE-LIFE-008): the COMPLETE event is a STATUS instead of an INSIGHT. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-final-answer-as-status');
