/**
 * The reference's briefings in spec 1.1's form (docs/versioning.md "Spec versions"): the form the
 * deployed RANGER Command Console transformer writes (jvalenzano/ranger-twin @096f11f,
 * adkEventTransformer.ts): `schema_version: "1.1.0"`, lowercase types, `severity`, `ui_binding`,
 * `content.suggested_actions`, and a proof_layer on every event. Everything else is the 1.0
 * briefing unchanged, so both forms follow one mapping (docs/briefing-mapping.md).
 *
 * No seed says which severity or UI target an event gets; the deployed transformer guesses them
 * from words ("error", "high severity"), which ABE-ALERT-002 calls wrong. The reference derives
 * them from what the event is: an ERROR is critical and interrupts (modal_interrupt), an ALERT is
 * a warning, a STATUS pulses the lifecycle rail, everything else is info in a panel.
 */
import type { BriefingEvent, BriefingType, ProofLayer } from './types.ts';

export type BriefingType11 = 'insight' | 'alert' | 'action_required' | 'status_update';
export type Severity = 'info' | 'warning' | 'critical';
export type UiTarget = 'map_highlight' | 'rail_pulse' | 'panel_inject' | 'modal_interrupt';
export type SuggestedAction = { action_id: string; label: string; target_agent: string; description: string; rationale: string };

export type BriefingEvent11 = Omit<BriefingEvent, 'type' | 'content' | 'proof_layer'> & {
  schema_version: '1.1.0';
  type: BriefingType11;
  severity: Severity;
  ui_binding: { target: UiTarget; geo_reference: null };
  content: BriefingEvent['content'] & { suggested_actions: SuggestedAction[] };
  proof_layer: ProofLayer | { reasoning_chain: string[]; citations: [] };
};

const types11: Record<BriefingType, BriefingType11> = { INSIGHT: 'insight', ALERT: 'alert', ACTION: 'action_required', STATUS: 'status_update' };

export function severityOf(event: BriefingEvent): Severity {
  if (event.state === 'ERROR') return 'critical';
  return event.type === 'ALERT' ? 'warning' : 'info';
}

export function uiTargetOf(event: BriefingEvent): UiTarget {
  if (severityOf(event) === 'critical') return 'modal_interrupt';
  return event.type === 'STATUS' ? 'rail_pulse' : 'panel_inject';
}

/** One 1.0 briefing in 1.1's form. */
export function toSpec11(event: BriefingEvent): BriefingEvent11 {
  return {
    schema_version: '1.1.0',
    ...event,
    type: types11[event.type],
    severity: severityOf(event),
    ui_binding: { target: uiTargetOf(event), geo_reference: null },
    content: { ...event.content, suggested_actions: [] },
    // The 1.1 consumer keeps only events with a proof_layer object; an event with no proof has an empty one.
    proof_layer: event.proof_layer ?? { reasoning_chain: [], citations: [] },
  };
}
