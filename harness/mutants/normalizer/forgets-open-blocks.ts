/** Mutant: a turn that ends with blocks still open ends with stream_end alone, no block_not_stopped error for them. */
import { wrapReference } from './wrap.ts';

export const createBlockNormalizer = wrapReference((event) => (event.event_type === 'error' && event.data.reason === 'block_not_stopped' ? [] : [event]));
