/** Mutant transformer-alert-on-error-words (kills ABE-ALERT-002, ABE-LIFE-004, ABE-LIFE-008): an INSIGHT whose text says "error" or "fail" becomes an ALERT ("No errors found" included). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-alert-on-error-words');
