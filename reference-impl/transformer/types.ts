/**
 * The shapes the transformer reads (ADK events, loosely typed: the wire is not trusted) and writes
 * (AgentBriefingEvent, seed 002 §2, plus the extra properties docs/briefing-mapping.md lists).
 */

/** One `content.parts[]` entry of an ADK event; only the keys the transformer reads are named. */
export type AdkPart = {
  text?: unknown;
  thought?: unknown;
  functionCall?: { id?: unknown; name?: unknown; args?: unknown } | undefined;
  functionResponse?: { id?: unknown; name?: unknown; response?: unknown } | undefined;
  [key: string]: unknown;
};

/** An ADK event as it arrives in a `data:` field (adk-js or adk-python), after JSON.parse. */
export type AdkEvent = {
  invocationId?: unknown;
  author?: unknown;
  id?: unknown;
  timestamp?: unknown;
  partial?: unknown;
  finishReason?: unknown;
  errorCode?: unknown;
  errorMessage?: unknown;
  longRunningToolIds?: unknown;
  content?: { role?: unknown; parts?: unknown } | undefined;
  actions?: Record<string, unknown> | undefined;
  _audit_metadata?: unknown;
  [key: string]: unknown;
};

/** Lifecycle states of seed 002 §4.1 (PENDING is the client's own spinner and never emitted). */
export const briefingStates = ['THINKING', 'DELEGATING', 'EXECUTING', 'SYNTHESIZING', 'COMPLETE', 'ERROR'] as const;
export type BriefingState = (typeof briefingStates)[number];

export type BriefingType = 'INSIGHT' | 'ALERT' | 'ACTION' | 'STATUS';

export type Citation = {
  source: string;
  reference_id?: string;
  snippet?: string;
  /** Extra (seed 000 §3.3 rule 2 names): where the citation came from. */
  source_type?: string;
  id?: string;
  uri?: string;
  excerpt?: string;
};

export type LedgerInput = { source: string; confidence: number; tier: 1 | 2 | 3 | 4; notes: string };

export type ConfidenceLedger = { inputs: LedgerInput[]; analysis_confidence: number; recommendation_confidence: number };

export type ProofLayer = {
  /** Absent when the data states none: a number is never invented (seed 000 §1.2 gap 2). */
  confidence?: number;
  reasoning_chain: string[];
  citations: Citation[];
  confidence_ledger?: ConfidenceLedger;
  /** Extra: where the proof layer came from. */
  basis: 'audit' | 'structured' | 'text' | 'failure' | 'none';
};

/**
 * Extra: the token counts one model event reported (its `usageMetadata`), copied, never inferred:
 * a count the event did not report is null, and an event without usageMetadata gives `usage: null`
 * (adk-js #645: "no usage reported" and "usage reported as zero" must stay two values).
 */
export type BriefingUsage = { prompt_token_count: number | null; candidates_token_count: number | null; total_token_count: number | null };

export type BriefingEvent = {
  event_id: string;
  correlation_id: string;
  parent_event_id: string | null;
  type: BriefingType;
  source_agent: string;
  skill_id?: string;
  content: { summary: string; detail?: string; degradation_notice?: string };
  proof_layer?: ProofLayer;
  /** Extra: the seed 002 §4.1 state this event stands for (absent on intermediate insights and alerts). */
  state?: BriefingState;
  /** Extra, on DELEGATING and EXECUTING events: the specialist, transfer target or tool called. */
  delegate_to?: string;
  /** Extra: 0-based position in the run's output. */
  sequence: number;
  /** Extra: ISO 8601 time the transformer emitted the event. */
  timestamp: string;
  /** Extra, on the first DELEGATING/EXECUTING event of a call turn and on answer INSIGHTs: that model event's token usage. */
  usage?: BriefingUsage | null;
  /** Extra, on ERROR events and error ALERTs: what failed. */
  error?: { source: 'error-frame' | 'error-code' | 'tool' | 'http' | 'stream' | 'input'; code?: string; message: string };
};
