/** Mutant transformer-failure-without-confidence (kills PL-CONF-004): a failed tool's briefing carries no confidence instead of 0.0. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-failure-without-confidence');
