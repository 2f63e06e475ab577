// Slice 2 of 2 of the transformer mutant suite (harness/mutants/transformer/suite.ts says what it proves and why it is sliced).
import { transformerMutantSuite } from './transformer/suite.ts';

transformerMutantSuite(2, 2);
