/** Mutant transformer-narration-from-deltas (kills ABE-TEXT-001): a call turn's narration is only what partial chunks streamed, so text only the aggregated event carried is lost (adk-docs PR #2076). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-narration-from-deltas');
