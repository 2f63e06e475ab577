/**
 * Seed 004 § Legacy Pattern: the GET stream carries "Custom Event Types: `research_update` -
 * Research progress messages, `agent_status` - Agent state changes, `research_complete` - Final
 * report ready", "Converted and enriched", "Derived summaries only". The seed names the events
 * but not their payloads; this engine defines them (docs/gateway.md § Legacy events):
 *
 * - an author seen for the first time → agent_status {status: "active"}
 * - each functionCall part (not in partial events) → agent_status {status: "calling_tool", tool}
 *   (`transfer_to_agent` → {status: "transferring", target})
 * - each functionResponse part → agent_status {status: "tool_complete", tool}
 * - actions.transferToAgent → agent_status {status: "transferred", target}
 * - errorCode → agent_status {status: "error", errorCode, errorMessage}
 * - the text parts of an event (thoughts excluded) → research_update {content, partial}
 * - the end of the run → research_complete {status, finalReport, error?} (exactly once)
 */
import type { UpstreamOutcome } from './upstream.ts';

export type LegacyEventName = 'research_update' | 'agent_status' | 'research_complete';
export type LegacyEvent = { event: LegacyEventName; data: Record<string, unknown> };

export type LegacyDeriver = {
  /** One SSE frame's data, as the upstream sent it. */
  feed: (data: string) => LegacyEvent[];
  /** The run ended; returns the research_complete event (once; later calls return nothing). */
  end: (outcome: UpstreamOutcome, timeoutMs: number) => LegacyEvent[];
};

type Part = { text?: unknown; thought?: unknown; functionCall?: { name?: unknown; args?: Record<string, unknown> }; functionResponse?: { name?: unknown } };
type AdkEvent = { id?: unknown; author?: unknown; partial?: unknown; errorCode?: unknown; errorMessage?: unknown; content?: { parts?: unknown }; actions?: { transferToAgent?: unknown } };

export function createLegacyDeriver(sessionId: string): LegacyDeriver {
  const authors = new Set<string>();
  let finalReport = '';
  let finalAgent: string | undefined;
  let error: string | undefined;
  let ended = false;

  const status = (agent: string, fields: Record<string, unknown>, eventId: unknown): LegacyEvent =>
    ({ event: 'agent_status', data: { sessionId, agent, ...fields, ...(typeof eventId === 'string' ? { eventId } : {}) } });

  function feed(data: string): LegacyEvent[] {
    let parsed: unknown;
    try { parsed = JSON.parse(data); } catch { return []; }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
    const event = parsed as AdkEvent & { error?: unknown };
    // An in-stream error frame (`data: {"error": ...}`), the ADK server's last frame on failure.
    if (typeof event.author !== 'string') {
      if (event.error !== undefined) error = typeof event.error === 'string' ? event.error : JSON.stringify(event.error);
      return [];
    }
    const agent = event.author;
    const out: LegacyEvent[] = [];
    if (!authors.has(agent)) { authors.add(agent); out.push(status(agent, { status: 'active' }, event.id)); }
    const parts: Part[] = Array.isArray(event.content?.parts) ? (event.content.parts as Part[]) : [];
    const partial = event.partial === true;
    for (const part of parts) {
      // A partial event's function calls are previews that the final event repeats (adk-python-facts §4.2).
      if (part.functionCall && !partial) {
        const tool = String(part.functionCall.name);
        const args = part.functionCall.args ?? {};
        out.push(tool === 'transfer_to_agent'
          ? status(agent, { status: 'transferring', target: args.agentName ?? args.agent_name }, event.id)
          : status(agent, { status: 'calling_tool', tool }, event.id));
      }
      if (part.functionResponse) out.push(status(agent, { status: 'tool_complete', tool: String(part.functionResponse.name) }, event.id));
    }
    if (typeof event.actions?.transferToAgent === 'string') out.push(status(agent, { status: 'transferred', target: event.actions.transferToAgent }, event.id));
    if (event.errorCode !== undefined) {
      error = `${String(event.errorCode)}: ${String(event.errorMessage ?? '')}`;
      out.push(status(agent, { status: 'error', errorCode: event.errorCode, errorMessage: event.errorMessage ?? null }, event.id));
    }
    const text = parts.filter((p) => typeof p.text === 'string' && p.thought !== true).map((p) => p.text as string).join('');
    if (text !== '') {
      out.push({ event: 'research_update', data: { sessionId, agent, content: text, partial, ...(typeof event.id === 'string' ? { eventId: event.id } : {}) } });
      if (!partial && !parts.some((p) => p.functionCall)) { finalReport = text; finalAgent = agent; }
    }
    return out;
  }

  function end(outcome: UpstreamOutcome, timeoutMs: number): LegacyEvent[] {
    if (ended) return [];
    ended = true;
    const failure = outcomeError(outcome, timeoutMs) ?? error;
    return [{
      event: 'research_complete',
      data: { sessionId, status: failure === undefined ? 'complete' : 'error', finalReport, ...(finalAgent !== undefined ? { agent: finalAgent } : {}), ...(failure !== undefined ? { error: failure } : {}) },
    }];
  }

  return { feed, end };
}

function outcomeError(outcome: UpstreamOutcome, timeoutMs: number): string | undefined {
  switch (outcome.kind) {
    case 'eof': return undefined;
    case 'aborted': return 'run cancelled';
    case 'timeout': return `Request timeout after ${timeoutMs / 1000} seconds`;
    case 'status': return `ADK upstream error: ${outcome.status}: ${outcome.detail}`;
    case 'stream-error': return outcome.message;
  }
}
