/** Mutant transformer-insights-without-parent (kills ABE-PARENT-001): INSIGHTs carry parent_event_id null, also a specialist's result. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-insights-without-parent');
