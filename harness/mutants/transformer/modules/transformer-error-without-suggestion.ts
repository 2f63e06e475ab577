/** Mutant transformer-error-without-suggestion (kills ABE-LIFE-005): ERROR events carry only a summary, no suggestion. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-error-without-suggestion');
