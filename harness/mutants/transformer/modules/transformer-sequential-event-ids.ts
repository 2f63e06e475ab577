/** Mutant transformer-sequential-event-ids (kills ABE-ID-001): event ids are a counter (evt-1, evt-2...) instead of UUIDs. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-sequential-event-ids');
