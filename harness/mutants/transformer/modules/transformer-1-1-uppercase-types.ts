/** Mutant transformer-1-1-uppercase-types (kills ABE-SCHEMA-002 under --spec 1.1): spec 1.1 events keep seed 002's uppercase types (STATUS, INSIGHT). */
import { mutant11 } from '../spec-1-1-mutations.ts';

export const createTransformer = mutant11('transformer-1-1-uppercase-types');
