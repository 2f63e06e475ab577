/** Mutant transformer-specialist-insight-from-caller (kills ABE-LIFE-008, ABE-SRC-001): a specialist's result is an INSIGHT from the coordinator that called it. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-specialist-insight-from-caller');
