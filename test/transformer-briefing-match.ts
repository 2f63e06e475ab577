/**
 * Matching a scenario's `expect.briefings` outline (a subsequence of the transformer's output) for
 * the transformer's own corpus tests. Returns the first mismatch as a sentence, or undefined.
 */
import type { BriefingEvent } from '../reference-impl/transformer/types.ts';

export type BriefingOutline = {
  type: string;
  source_agent?: string;
  state?: string;
  confidence?: number | null;
  citations?: number;
  citationSources?: string[];
  degraded?: boolean;
};

function matches(outline: BriefingOutline, e: BriefingEvent): boolean {
  if (e.type !== outline.type) return false;
  if (outline.source_agent !== undefined && e.source_agent !== outline.source_agent) return false;
  if (outline.state !== undefined && e.state !== outline.state) return false;
  if (outline.confidence === null && e.proof_layer?.confidence !== undefined) return false;
  if (typeof outline.confidence === 'number' && Math.abs((e.proof_layer?.confidence ?? Number.NaN) - outline.confidence) > 1e-9) return false;
  const sources = (e.proof_layer?.citations ?? []).map((c) => c.source);
  if (outline.citations !== undefined && sources.length !== outline.citations) return false;
  if (outline.citationSources && !outline.citationSources.every((s) => sources.includes(s))) return false;
  if (outline.degraded !== undefined && (e.content.degradation_notice !== undefined) !== outline.degraded) return false;
  return true;
}

export function outlineMismatch(outlines: BriefingOutline[], events: BriefingEvent[]): string | undefined {
  let from = 0;
  for (const [i, outline] of outlines.entries()) {
    const at = events.findIndex((e, j) => j >= from && matches(outline, e));
    if (at < 0) return `expected briefing ${i} ${JSON.stringify(outline)} after event ${from}; got ${JSON.stringify(events.slice(from).map((e) => [e.type, e.state, e.source_agent, e.proof_layer?.confidence, e.proof_layer?.citations.map((c) => c.source)]))}`;
    from = at + 1;
  }
  return undefined;
}
