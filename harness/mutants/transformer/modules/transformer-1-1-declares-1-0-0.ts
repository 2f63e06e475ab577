/** Mutant transformer-1-1-declares-1-0-0 (kills ABE-SCHEMA-002 under --spec 1.1): spec 1.1 events declare schema_version "1.0.0" (the RANGER Python model's default). */
import { mutant11 } from '../spec-1-1-mutations.ts';

export const createTransformer = mutant11('transformer-1-1-declares-1-0-0');
