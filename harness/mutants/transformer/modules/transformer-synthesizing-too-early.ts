/** Mutant transformer-synthesizing-too-early (kills ABE-LIFE-006): SYNTHESIZING is announced right after THINKING, before the delegations. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-synthesizing-too-early');
