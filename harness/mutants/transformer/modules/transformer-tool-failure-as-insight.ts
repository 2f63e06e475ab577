/** Mutant transformer-tool-failure-as-insight (kills ABE-ALERT-001): a failed tool is reported as an INSIGHT, not an ALERT. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-tool-failure-as-insight');
