/** Mutant transformer-transfer-answer-attributed-to-root (kills ABE-SRC-001): the final answer of a transfer target is attributed to the root agent. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-transfer-answer-attributed-to-root');
