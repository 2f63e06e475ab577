/** Mutant transformer-completes-cut-stream (kills ABE-TERM-002): a stream that ends without a final answer is declared COMPLETE. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-completes-cut-stream');
