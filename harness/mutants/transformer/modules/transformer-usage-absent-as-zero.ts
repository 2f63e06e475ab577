/** Mutant transformer-usage-absent-as-zero (kills ABE-USAGE-001): a token count the model did not report is reported as 0 (adk-js #645). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-usage-absent-as-zero');
