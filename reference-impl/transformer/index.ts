/** The reference ADK -> AgentBriefingEvent transformer: `createTransformer` and the shapes it speaks. */
export { createTransformer, type RunEnd, type Transformer, type TransformerConfig } from './create-transformer.ts';
export { classifyData, classifyPayload, type ClientFrame, type ClientIssue, type DataFrame, type EndReason } from './frames.ts';
export type { AdkEvent, BriefingEvent, BriefingState, Citation, ConfidenceLedger, ProofLayer } from './types.ts';
