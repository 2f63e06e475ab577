/** Mutant transformer-delegation-as-executing (kills ABE-LIFE-007): a delegation to a specialist is announced as EXECUTING, like a plain tool. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-delegation-as-executing');
