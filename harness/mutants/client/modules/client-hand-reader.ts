/** The hand-written reader with no defect: the mutants' baseline (every requirement passes). */
import { createReferenceClient } from '../../../targets/client/reference.ts';
import type { ClientFactory } from '../../../targets/client/drive.ts';
import { createHandReader } from '../hand-reader.ts';

export const createClient: ClientFactory = (options) => createReferenceClient(options, { config: { createReader: (config) => createHandReader(config) } });
