/** Mutant transformer-announces-call-previews (kills ABE-CALL-001): calls are announced from partial previews and de-duplicated by call id, so a call run under a fresh id is announced twice (ag-ui #968). */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-announces-call-previews');
