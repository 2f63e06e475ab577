/**
 * apps/command-console/src/services/adkEventTransformer.ts as seed 000 §2.2C-D writes it, with the
 * "existing heuristic" it falls back to (seed 001 Option A) and seed 002's schema and state machine.
 * Calibration material (README.md in this folder): its defects are kept on purpose.
 */
import { randomUUID } from 'node:crypto';

// Seed 000 §2.2C "Enhanced ADKEvent Interface".
export interface AuditTrailEvent {
  event_type: 'tool_invocation' | 'tool_response' | 'tool_error';
  timestamp: string;
  agent: string;
  tool: string;
  confidence?: number;
  data_sources?: string[];
  reasoning_chain?: string[];
}

interface ADKPart {
  text?: string;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response?: { result?: string } & Record<string, unknown> };
}

export interface ADKEvent {
  id: string;
  invocationId?: string;
  author?: string;
  content?: { parts: ADKPart[]; role?: string };
  actions?: Record<string, unknown>;
  partial: boolean;
  finishReason?: string;
  error?: string;
  errorCode?: string;
  errorMessage?: string;
  _audit_metadata?: AuditTrailEvent[];
}

// Seed 000 §1.1 "Proof Layer Schema (v1.1.0)" and seed 002 §2.
interface ConfidenceLedger {
  inputs: Array<{ source: string; confidence: number; tier: number; notes: string }>;
  analysis_confidence: number;
  recommendation_confidence: number;
}
interface Citation { source: string; reference_id?: string; snippet?: string }
interface ProofLayer { confidence: number; confidence_ledger?: ConfidenceLedger | null; citations: Citation[]; reasoning_chain: string[] }
export interface AgentBriefingEvent {
  event_id: string;
  correlation_id: string;
  parent_event_id: string | null;
  type: 'INSIGHT' | 'ALERT' | 'ACTION' | 'STATUS';
  state?: string;
  source_agent: string;
  content: { summary: string; detail?: string };
  proof_layer?: ProofLayer;
  timestamp: string;
}

function textOf(event: ADKEvent): string {
  const parts = event.content?.parts ?? [];
  return parts.map((p) => p.text ?? p.functionResponse?.response?.result ?? '').join('\n');
}

// Seed 001 "Option A: Parse Text Responses": the "existing heuristic".
function extractConfidenceFromText(event: ADKEvent): number {
  const confidenceMatch = textOf(event).match(/\*\*Confidence:\*\*\s*(\d+)%/);
  const confidence = confidenceMatch ? parseInt(confidenceMatch[1] as string) : 90;
  return confidence / 100;
}

// Seed 000 §2.2D, as written.
function extractConfidence(event: ADKEvent): number {
  // Check audit metadata first
  const toolResponse = event._audit_metadata?.find((e) => e.event_type === 'tool_response');
  if (toolResponse?.confidence) {
    return toolResponse.confidence;
  }
  // Fallback to existing heuristic
  return extractConfidenceFromText(event);
}

// Seed 000 §2.2D, as written.
function buildConfidenceLedger(event: ADKEvent): ConfidenceLedger | null {
  const toolResponse = event._audit_metadata?.find((e) => e.event_type === 'tool_response');

  if (!toolResponse?.data_sources) return null;

  return {
    inputs: toolResponse.data_sources.map((source) => ({
      source,
      confidence: toolResponse.confidence as number,
      tier: (toolResponse.confidence as number) >= 0.9 ? 1 : (toolResponse.confidence as number) >= 0.7 ? 2 : 3,
      notes: `From ${toolResponse.tool} execution`,
    })),
    analysis_confidence: toolResponse.confidence as number,
    recommendation_confidence: toolResponse.confidence as number,
  };
}

// Seed 000 §7 "Citations include tool-provided data_sources"; else seed 001 Option A's source.
function extractCitations(event: ADKEvent): Citation[] {
  const toolResponse = event._audit_metadata?.find((e) => e.event_type === 'tool_response');
  if (toolResponse?.data_sources) return toolResponse.data_sources.map((source) => ({ source }));
  const sourceMatch = textOf(event).match(/\*\*Source:\*\*\s*(.+?)(?:\n|$)/);
  const source = sourceMatch ? (sourceMatch[1] as string) : 'Unknown';
  return [{ source }];
}

// Seed 000 §7 "Reasoning chains come directly from skill execution logs"; else seed 001 "Track
// function call/response sequence".
function buildReasoningChain(event: ADKEvent, sequence: string[]): string[] {
  const toolResponse = event._audit_metadata?.find((e) => e.event_type === 'tool_response');
  return toolResponse?.reasoning_chain ?? [...sequence];
}

// Seed 001 "Completion Detection Strategy (FINAL)", as written.
function detectCompletion(event: ADKEvent): boolean {
  if (event.finishReason === 'STOP') {
    const hasText = (event.content as { parts: ADKPart[] }).parts.some((p) => p.text && !p.functionCall);
    if (hasText) {
      return true; // This is the final synthesis
    }
  }
  return false;
}

/** One run's transformer: ADK events in, AgentBriefingEvents out (seed 002 §4.1's states). */
export class AdkEventTransformer {
  private started = false;
  private completed = false;
  private lastText = '';
  private lastAgent = 'coordinator';
  private lastDelegation: string | null = null;
  private readonly sequence: string[] = [];
  private readonly correlationId: string | undefined;

  constructor(correlationId: string | undefined) {
    this.correlationId = correlationId;
  }

  private briefing(type: AgentBriefingEvent['type'], state: string, source: string, detail: string, proof?: ProofLayer): AgentBriefingEvent {
    return {
      event_id: randomUUID(),
      correlation_id: this.correlationId ?? 'unknown',
      parent_event_id: this.lastDelegation,
      type,
      state,
      source_agent: source,
      content: { summary: detail.split('\n')[0]?.slice(0, 120) || state, detail },
      ...(proof ? { proof_layer: proof } : {}),
      timestamp: new Date().toISOString(),
    };
  }

  private proofLayer(event: ADKEvent): ProofLayer {
    return {
      confidence: extractConfidence(event),
      confidence_ledger: buildConfidenceLedger(event),
      citations: extractCitations(event),
      reasoning_chain: buildReasoningChain(event, this.sequence),
    };
  }

  transform(event: ADKEvent): AgentBriefingEvent[] {
    if (this.completed) return [];
    const out: AgentBriefingEvent[] = [];
    const author = event.author ?? this.lastAgent;
    if (!this.started) {
      this.started = true;
      out.push(this.briefing('STATUS', 'THINKING', author, `${author} is thinking`));
    }
    if (event.error || event.errorCode) {
      out.push(this.briefing('STATUS', 'ERROR', author, String(event.error ?? event.errorMessage ?? event.errorCode)));
      return out;
    }
    // Seed 002 §4.2 "Atomic JSON Blobs": only complete events become briefings.
    if (event.partial) return out;
    this.lastAgent = author;
    for (const part of event.content?.parts ?? []) {
      if (part.functionCall) {
        const status = this.briefing('STATUS', author === 'coordinator' ? 'DELEGATING' : 'EXECUTING', author, `Calling ${part.functionCall.name}`);
        this.lastDelegation = status.event_id;
        this.sequence.push(`Called ${part.functionCall.name}`);
        out.push(status);
      }
      if (part.functionResponse) {
        const result = part.functionResponse.response?.result ?? JSON.stringify(part.functionResponse.response ?? {});
        this.sequence.push(`${part.functionResponse.name} responded`);
        const type = /error|fail/i.test(result) ? 'ALERT' : 'INSIGHT';
        out.push(this.briefing(type, 'EXECUTING', part.functionResponse.name, result, this.proofLayer(event)));
      }
    }
    const text = (event.content?.parts ?? []).map((p) => p.text ?? '').join('');
    if (text) this.lastText = text;
    if (detectCompletion(event)) {
      out.push(this.handleCompletion(event));
    } else if (text) {
      out.push(this.briefing('STATUS', 'SYNTHESIZING', author, text));
    }
    return out;
  }

  /** Seed 001: the final synthesis, or the fallback "No events for 10 seconds after last event → close stream". */
  handleCompletion(event?: ADKEvent): AgentBriefingEvent {
    this.completed = true;
    const final = this.briefing('INSIGHT', 'COMPLETE', this.lastAgent, this.lastText, event ? this.proofLayer(event) : undefined);
    return final;
  }

  get done(): boolean {
    return this.completed;
  }
}
