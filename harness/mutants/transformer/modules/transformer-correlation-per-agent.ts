/** Mutant transformer-correlation-per-agent (kills ABE-CORR-001): each agent's events get their own correlation id (session:agent). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-correlation-per-agent');
