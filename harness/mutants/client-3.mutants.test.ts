// Slice 3 of 3 of the client mutant suite (harness/mutants/client/suite.ts says what it proves and why it is sliced).
import { clientMutantSuite } from './client/suite.ts';

clientMutantSuite(3, 3);
