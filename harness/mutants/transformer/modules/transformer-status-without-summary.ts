/** Mutant transformer-status-without-summary (kills ABE-SCHEMA-001): STATUS events carry no content.summary. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-status-without-summary');
