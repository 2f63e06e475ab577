/**
 * The generated scenario, typed as the generator writes it: the `upstream.kind: "run"` subset of
 * schemas/scenario.schema.json that generated runs use. `asScenario` hands it to the kit's
 * modules, which take the schema's own type; a law validates every one against the schema.
 */
import type { FaultSpec } from '../../mock-adk/core/faults.ts';
import type { Scenario } from '../../schemas/types.ts';

export type GenAuditEvent = {
  event_type: 'tool_invocation' | 'tool_response' | 'tool_error';
  event_id: string;
  timestamp: string;
  correlation_id: string;
  agent: string;
  session_id: string;
  parent_event_id: string | null;
  payload: Record<string, unknown>;
};

export type GenModelStep = {
  author: string;
  text?: string;
  chunks?: string[];
  calls?: Array<{ name: string; args: Record<string, unknown> }>;
  truncate?: boolean;
  callsWithLastChunk?: boolean;
  reissuedCallIds?: boolean;
  usageMissing?: boolean;
};

export type GenToolsStep = {
  author: string;
  responses: Array<{ name: string; response: Record<string, unknown> }>;
  transferToAgent?: string;
};

export type GenStep =
  | { model: GenModelStep; audit?: GenAuditEvent[] }
  | { tools: GenToolsStep; audit?: GenAuditEvent[] }
  | { modelError: { author: string; errorCode: string; errorMessage: string } }
  | { errorFrame: { message: string; style?: 'dialect' | 'python-legacy-unescaped' | 'python-structured' } };

export type BriefingOutline = {
  type: 'INSIGHT' | 'ALERT' | 'ACTION' | 'STATUS';
  source_agent?: string;
  state?: 'THINKING' | 'DELEGATING' | 'EXECUTING' | 'SYNTHESIZING' | 'COMPLETE' | 'ERROR';
  confidence?: number | null;
  citations?: number;
  citationSources?: string[];
};

export type GenExpect = {
  status: 200;
  outcome: 'complete' | 'error' | 'cut';
  frames: number;
  completionPoint: number | null;
  finalText?: string;
  errorFrame?: Record<string, unknown>;
  briefings: BriefingOutline[];
};

export type GenScenario = {
  id: string;
  title: string;
  family: 'delegation' | 'transfer' | 'audit' | 'streaming' | 'errors' | 'missing-done' | 'framing';
  tags: string[];
  specRefs: Array<{ doc: string; section: string }>;
  dialect: 'adk-js' | 'adk-python';
  replays: string;
  session: { userId: string; sessionId: string };
  request: { message: string; streaming: boolean; endpoint?: '/run_sse_enhanced' };
  upstream: { kind: 'run'; steps: GenStep[]; invocationId?: string };
  faults?: FaultSpec[];
  expect: GenExpect;
};

export function asScenario(s: GenScenario): Scenario {
  return s as unknown as Scenario;
}
