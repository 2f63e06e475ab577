/** Mutant transformer-tool-as-source-agent (kills ABE-SRC-001): each tool's function response is also an INSIGHT whose source_agent is the tool. */
import { mutant } from '../mutate.ts';

export const createTransformer = mutant('transformer-tool-as-source-agent');
