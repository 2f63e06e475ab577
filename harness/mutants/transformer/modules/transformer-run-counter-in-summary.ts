/** Mutant transformer-run-counter-in-summary (kills ABE-DET-001): THINKING summaries number the runs with a counter that leaks from run to run. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-run-counter-in-summary');
