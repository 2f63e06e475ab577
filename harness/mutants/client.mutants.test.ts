// Slice 1 of 3 of the client mutant suite (harness/mutants/client/suite.ts says what it proves and why it is sliced).
import { clientMutantSuite } from './client/suite.ts';

clientMutantSuite(1, 3);
