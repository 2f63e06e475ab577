/** Mutant transformer-recommendation-minus-margin (kills PL-LEDGER-001): recommendation_confidence is the analysis confidence minus 0.03 (seed 000 §3.3 rule 4), a number no data states. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-recommendation-minus-margin');
