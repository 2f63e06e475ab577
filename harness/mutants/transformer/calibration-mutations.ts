/**
 * Defects the calibration on real code found the kit letting through (docs/calibration.md §8,
 * seed 000's TypeScript transformer), as mutations of the reference module's input: each rewrites
 * the audit trail the way the defective reader sees it, so the reference then builds its proof
 * layer from what that reader would have read.
 */
import { randomUUID } from 'node:crypto';
import type { BriefingEvent } from '../../../reference-impl/transformer/types.ts';
import type { Mutation } from './mutate.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Rewrite each `_audit_metadata` entry of an event line; other lines pass unchanged. */
function rewriteAudit(line: string, rewrite: (entry: Record<string, unknown>) => Record<string, unknown>): string {
  let ev: unknown;
  try { ev = JSON.parse(line); } catch { return line; }
  if (!isRecord(ev) || !Array.isArray(ev._audit_metadata)) return line;
  return JSON.stringify({ ...ev, _audit_metadata: ev._audit_metadata.map((x) => (isRecord(x) ? rewrite(x) : x)) });
}

// Seed 000 §3.2's envelope: the fields a reader of `entry.payload.*` still reads at the top level.
const envelope = new Set(['event_type', 'event_id', 'timestamp', 'correlation_id', 'invocation_id', 'agent', 'session_id', 'parent_event_id', 'payload']);

export const calibrationMutations: Record<string, Mutation> = {
  // Seed 000's transformer shows each function response as an INSIGHT from the function
  // (`source_agent: "get_fire_perimeter"`, docs/calibration.md §3 miss 3): an event with no state.
  'transformer-tool-as-source-agent': {
    line: (line, ctx) => {
      let ev: unknown;
      try { ev = JSON.parse(line); } catch { return { line }; }
      if (!isRecord(ev) || ev.partial === true || !isRecord(ev.content) || !Array.isArray(ev.content.parts)) return { line };
      const seen = (ctx.state.toolResults ??= new Set<string>()) as Set<string>;
      const key = `${String(ev.id)}\u0000${JSON.stringify(ev.content)}`;
      if (seen.has(key)) return { line };
      seen.add(key);
      const specialists = (ctx.state.specialists ??= new Set<string>()) as Set<string>;
      const after: BriefingEvent[] = [];
      for (const part of ev.content.parts.filter(isRecord)) {
        const call = isRecord(part.functionCall) ? part.functionCall : undefined;
        // AgentTool's declaration is {request: STRING}: that call is a specialist's, not a tool's.
        if (call && isRecord(call.args) && Object.keys(call.args).join() === 'request') specialists.add(String(call.name));
        const r = isRecord(part.functionResponse) ? part.functionResponse : undefined;
        if (!r || typeof r.name !== 'string' || specialists.has(r.name) || r.name === 'transfer_to_agent') continue;
        const parent = ctx.emitted.at(-1);
        after.push({ event_id: randomUUID(), correlation_id: ctx.sessionId, parent_event_id: parent?.event_id ?? null, type: 'INSIGHT', source_agent: r.name, content: { summary: `${r.name} returned ${JSON.stringify(r.response ?? null).slice(0, 120)}` }, sequence: 0, timestamp: new Date(0).toISOString() });
      }
      return { line, after };
    },
  },
  // `entry.payload?.confidence`, `entry.payload?.data_sources`...: a flat entry (seed 000 §2.2A's
  // dataclasses, §9 step 3) has no payload, so the reader finds neither a score nor a source in it.
  'transformer-reads-nested-audit-only': {
    line: (line) => ({ line: rewriteAudit(line, (entry) => (isRecord(entry.payload) ? entry : Object.fromEntries(Object.entries(entry).filter(([k]) => envelope.has(k))))) }),
  },
  // Seed 000 §2.2D's `if (toolResponse?.confidence) return toolResponse.confidence;` then the text
  // heuristic: a stated 0.0 is falsy, so the run gets the heuristic's default 0.90 (seed 001 Option A).
  'transformer-falsy-confidence-fallback': {
    line: (line) => ({
      line: rewriteAudit(line, (entry) => {
        if (entry.event_type !== 'tool_response') return entry;
        if (isRecord(entry.payload) && typeof entry.payload.confidence === 'number' && !entry.payload.confidence) return { ...entry, payload: { ...entry.payload, confidence: 0.9 } };
        return typeof entry.confidence === 'number' && !entry.confidence ? { ...entry, confidence: 0.9 } : entry;
      }),
    }),
  },
};
