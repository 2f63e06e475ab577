/** The basis of each block-index normaliser requirement (seed 003, an implementation plan whose §4 lists the required changes). */
import type { BasisTable } from './basis.ts';
import { seed } from './basis-sources.ts';

const objective = seed('seed-003', '1. Objective', 'ensure that unique, sequential `index` values are emitted in Server-Sent Events (SSE) for each distinct conceptual content block intended for the frontend', 'This change is critical for resolving persistent UI issues in `AgentChatView.tsx` related to content ordering, styling, and duplication.');
const canRely = seed('seed-003', '5. Expected Frontend State (Post-Backend Change)', 'The frontend `AgentChatView.tsx` can rely on the `index` from SSE events being unique and sequential for distinct blocks.');
const required = seed('seed-003', '4. Required Code Changes in `src/agents/agent_turn_processor.py`', 'Implement the logic to assign and use these frontend-specific indices when preparing the `data` payload for `yield`ed SSE events.', '4. Required Code Changes in `src/agents/agent_turn_processor.py`');
const coreLogic = (quote: string) => seed('seed-003', '3.1. Core Logic Changes in `AgentTurnProcessor.stream_turn_response`:', quote);

export const normalizerBasis: BasisTable = {
  'BLK-IDX-001': { evidence: [objective, canRely, required], supports: 'MUST', allows: ['a new index for a block the LLM opens again under a reused index'] },
  'BLK-IDX-002': { evidence: [canRely, required, coreLogic('`sse_event_data["index"] = llm_internal_index_to_frontend_sse_index[llm_original_idx]`')], supports: 'MUST', allows: ['a block reopened under the same LLM index getting the next frontend index'] },
  'BLK-IDX-003': { evidence: [required, coreLogic('Use the `assigned_frontend_idx` (retrieved via `tool_id_to_frontend_idx` using the `tool_use_id`) in the `index` field of these SSE events.')], supports: 'MUST', allows: ['tool results that arrive after later blocks opened, carrying their tool_use\'s earlier index'] },
  'BLK-IDX-004': { evidence: [objective, canRely, coreLogic('Fallback to `frontend_sse_index_allocator - 1` or handle as an error.')], supports: 'MUST', allows: ['a logged warning beside the error event', 'any reason text that names the unknown index'], note: { seedRule: 'seed 003 §3.1: "Fallback to `frontend_sse_index_allocator - 1` or handle as an error."', judges: 'the outcome the seed promises (each index names one conceptual block): a delta for an unknown index is reported as an error. The fallback appends the delta to whichever block was opened last, the very content mixing (duplicated thinking text, mangled JSON) seed 003 sets out to end', scenario: 'index_reuse_unknown_index_delta', mutant: 'normalizer-guesses-unknown-index' } },
  'BLK-FLOW-004': { evidence: [coreLogic('These can be yielded without modifying their `index` (as they usually don\'t have one or it\'s not block-specific).')], supports: 'SHOULD', why: 'seed 003 says these events "can be yielded without modifying their `index`": a permission, not a rule', allows: ['the events passed on unchanged'] },
  'BLK-FLOW-003': { evidence: [required, coreLogic('Iterate through events from `self.llm.stream_message(...)`.')], supports: 'MUST', allows: ['the events of one input line written in one write'] },
  'BLK-OUT-001': { evidence: [required, coreLogic('For each `llm_event`, make a `sse_event_data = llm_event.get("data", {}).copy()`.')], supports: 'MUST', allows: ['keys in another order', 'the error event\'s reason in other words (the contract fixes its code, not its prose)'] },
  'BLK-FLOW-002': { evidence: [canRely, objective], supports: 'MUST', allows: ['index-free events between blocks'] },
};
