/** Mutant transformer-reversed-reasoning-chain (kills PL-REASON-001): the audit reasoning chain is reversed (newest step first). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-reversed-reasoning-chain');
