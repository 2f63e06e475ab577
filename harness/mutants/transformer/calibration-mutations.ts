/**
 * Defects the calibration on real code found the kit letting through (docs/calibration.md §8,
 * seed 000's TypeScript transformer), as mutations of the reference module's input: each rewrites
 * the audit trail the way the defective reader sees it, so the reference then builds its proof
 * layer from what that reader would have read.
 */
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
