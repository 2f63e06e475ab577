/**
 * Defects real transformers had that the kit let through (issue 29 §1, Transformer), as mutations
 * of the reference module. Each is applied where the real code got it wrong, and each is caught by
 * the requirement named in harness/mutants/transformer/index.ts.
 */
import type { BriefingEvent } from '../../../reference-impl/transformer/types.ts';
import type { Mutation } from './mutate.ts';

const alarmWords = /\b(errors?|fail(?:ed|ure|ures|s)?|warnings?)\b/i;

export const issue29Mutations: Record<string, Mutation> = {
  // "confidence = match ? parse(match) : 0.75": every INSIGHT or ALERT without a stated score gets
  // one, with the tier-2 notice such code writes beside it (so only the invention is wrong).
  'transformer-default-confidence-75': {
    event: (e) => {
      if ((e.type !== 'INSIGHT' && e.type !== 'ALERT') || e.proof_layer?.confidence !== undefined) return e;
      const proof = e.proof_layer ?? { reasoning_chain: [], citations: [], basis: 'none' as const };
      return { ...e, proof_layer: { ...proof, confidence: 0.75 }, content: { ...e.content, degradation_notice: e.content.degradation_notice ?? 'Derived data (tier 2): confidence 0.75.' } };
    },
  },
  // "citations.length ? citations : [{ source: 'Data from fixtures' }]".
  'transformer-generic-citation': {
    event: (e) => (e.proof_layer && e.proof_layer.citations.length === 0 ? { ...e, proof_layer: { ...e.proof_layer, citations: [{ source: 'Data from fixtures', source_type: 'RANGER-Fixtures' }] } } : e),
  },
  // The first percentage of the text taken as its confidence, on code whose final answer also
  // names a briefing service as its source: the lifecycle no longer leads to the event.
  'transformer-first-percentage-wins-unattributed': {
    event: (e) => {
      const m = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(e.content.detail ?? '');
      const first: BriefingEvent = e.proof_layer?.basis === 'text' && e.proof_layer.confidence !== undefined && m ? { ...e, proof_layer: { ...e.proof_layer, confidence: Number(m[1]) / 100 } } : e;
      return first.state === 'COMPLETE' ? { ...first, source_agent: 'briefing-service' } : first;
    },
  },
  // The error frame's ERROR, then the later frames read on as a new run (adk-go streams on after `event: error`).
  'transformer-reads-on-after-error-frame': { readsOnAfterError: true },
  // "type = /error|fail/i.test(text) ? 'ALERT' : 'INSIGHT'": "No errors found" becomes an ALERT.
  'transformer-alert-on-error-words': {
    event: (e) => (e.type === 'INSIGHT' && alarmWords.test(e.content.detail ?? e.content.summary) ? { ...e, type: 'ALERT' } : e),
  },
};
