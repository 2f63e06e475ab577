/**
 * The transformer mutants: the reference module with one defect each (mutate.ts), run through
 * `--transformer-module <file>` exactly as a team's module is. Each kills exactly the requirement
 * it names; harness/mutants/transformer/suite.ts proves it against the real mock and corpus.
 */
import { fileURLToPath } from 'node:url';
import type { Mutant } from '../types.ts';

const moduleOf = (id: string): string => fileURLToPath(new URL(`./modules/${id}.ts`, import.meta.url));

function m(id: string, kills: string[], description: string): Mutant {
  return { id, part: 'transformer', description, kills, target: { transformer: { module: moduleOf(id) } } };
}

/** A spec 1.1 mutant, certified with --spec 1.1 (one that declares another schema_version is still judged as 1.1). */
function m11(id: string, description: string): Mutant {
  return { id, part: 'transformer', description, kills: ['ABE-SCHEMA-002'], target: { transformer: { module: moduleOf(id) }, spec: '1.1' } };
}

export const transformerMutants: Mutant[] = [
  m('transformer-status-without-summary', ['ABE-SCHEMA-001'], 'STATUS events carry no content.summary'),
  m('transformer-sequential-event-ids', ['ABE-ID-001'], 'event ids are a counter (evt-1, evt-2...) instead of UUIDs'),
  m('transformer-correlation-per-agent', ['ABE-CORR-001'], 'each agent\'s events get their own correlation id (session:agent)'),
  m('transformer-correlation-per-invocation', ['ABE-CORR-002'], 'the correlation_id is each turn\'s invocationId: one per run, another at every turn of the session'),
  m('transformer-shared-state-under-load', ['ABE-ISO-001'], 'a fixed pool of 12 per-run states: a run opened while 12 others are open finds its agents already thinking (no THINKING of its own)'),
  m('transformer-keeps-its-chain', ['ABE-MEM-001'], 'a module-level Map of every briefing, never cleared: the chain grows with every run of the app\'s life (a real published transformer\'s defect)'),
  m('transformer-insights-without-parent', ['ABE-PARENT-001'], 'INSIGHTs carry parent_event_id null, also a specialist\'s result'),
  m('transformer-transfer-answer-attributed-to-root', ['ABE-SRC-001'], 'the final answer of a transfer target is attributed to the root agent'),
  m('transformer-no-thinking', ['ABE-LIFE-001'], 'no THINKING status is emitted'),
  m('transformer-delegation-as-executing', ['ABE-LIFE-007'], 'a delegation to a specialist is announced as EXECUTING, like a plain tool'),
  m('transformer-specialist-insight-from-caller', ['ABE-LIFE-008', 'ABE-SRC-001'], 'a specialist\'s result is an INSIGHT from the coordinator that called it'),
  m('transformer-final-answer-as-status', ['ABE-LIFE-004', 'ABE-LIFE-008'], 'the COMPLETE event is a STATUS instead of an INSIGHT (so a skipSummarization specialist result is no INSIGHT either)'),
  m('transformer-error-without-suggestion', ['ABE-LIFE-005'], 'ERROR events carry only a summary, no suggestion'),
  m('transformer-synthesizing-too-early', ['ABE-LIFE-006'], 'SYNTHESIZING is announced right after THINKING, before the delegations'),
  m('transformer-tool-failure-as-insight', ['ABE-ALERT-001'], 'a failed tool is reported as an INSIGHT, not an ALERT'),
  m('transformer-emits-partial-chunks', ['ABE-ATOMIC-001'], 'every streamed chunk is also emitted as an INSIGHT'),
  m('transformer-run-counter-in-summary', ['ABE-DET-001', 'ABE-ISO-001'], 'THINKING summaries number the runs with a counter that leaks from run to run'),
  m('transformer-status-after-complete', ['ABE-TERM-001'], 'a \'run finished\' STATUS follows the terminal event'),
  m('transformer-completes-cut-stream', ['ABE-TERM-002'], 'a stream that ends without a final answer is declared COMPLETE'),
  m('transformer-no-idle-timer', ['ABE-TERM-003'], 'no idle timer: a held-open connection completes only when the input ends'),
  m('transformer-ignores-done', ['ABE-TERM-004'], 'the [DONE] sentinel is ignored: the run waits for the end of input'),
  m('transformer-audit-confidence-plus-margin', ['PL-CONF-001'], 'the audit trail\'s confidence is raised by 0.03'),
  m('transformer-first-percentage-wins', ['PL-CONF-002'], 'the first percentage of the text is taken as its confidence'),
  m('transformer-default-confidence-90', ['PL-CONF-003'], 'a text that states no confidence gets 0.90 (seed 001\'s fallback)'),
  m('transformer-failure-without-confidence', ['PL-CONF-004'], 'a failed tool\'s briefing carries no confidence instead of 0.0'),
  m('transformer-drops-audit-citations', ['PL-CIT-001'], 'audit-based proof layers cite nothing'),
  m('transformer-ignores-regulatory-basis', ['PL-CIT-002'], '**Regulatory Basis:** lines are not cited'),
  m('transformer-reversed-reasoning-chain', ['PL-REASON-001'], 'the audit reasoning chain is reversed (newest step first)'),
  m('transformer-ledger-always-null', ['PL-LEDGER-001'], 'confidence_ledger is always null (seed 000 §1.1\'s gap)'),
  m('transformer-recommendation-minus-margin', ['PL-LEDGER-001'], 'recommendation_confidence is the analysis confidence minus 0.03 (seed 000 §3.3 rule 4), a number no data states'),
  m('transformer-no-degradation-notice', ['PL-TIER-002'], 'no degradation_notice, whatever the tier'),
  // Field-reported defects (issue 11 §5): each caught by the requirement written for its report.
  m('transformer-narration-doubled', ['ABE-TEXT-001'], 'a call turn\'s narration shows its streamed chunks and then the aggregated text that repeats them (adk-docs PR #2076, 2.000x)'),
  m('transformer-narration-from-deltas', ['ABE-TEXT-001'], 'a call turn\'s narration is only what partial chunks streamed, so text that reached the stream only in the aggregated event is lost (adk-docs PR #2076, 0.662x)'),
  m('transformer-announces-call-previews', ['ABE-CALL-001', 'ABE-DET-001', 'ABE-LIFE-007'], 'calls are announced from partial function-call previews and de-duplicated by call id, so a call run under a fresh adk- id is announced twice (ag-ui #968, adk-python #5064), and the briefings of one run differ between servers that preview calls differently'),
  m('transformer-state-delta-as-answer', ['ABE-FINAL-001'], 'every event is_final_response() calls final is an answer, so a callback\'s state-only event becomes an empty INSIGHT (adk-python #2992, #7078)'),
  m('transformer-usage-absent-as-zero', ['ABE-USAGE-001'], 'a token count the model did not report is reported as 0 (adk-js #645)'),
  // Defects real transformers had that the kit let through (issue 29 §1).
  m('transformer-default-confidence-75', ['PL-CONF-003'], 'every INSIGHT or ALERT whose data states no confidence gets 0.75 (with a tier-2 notice), wherever the lifecycle puts the event'),
  m('transformer-generic-citation', ['PL-CIT-003'], 'a proof layer that found no citation cites "Data from fixtures"'),
  m('transformer-first-percentage-wins-unattributed', ['PL-CONF-002', 'ABE-SRC-001', 'ABE-LIFE-008'], 'the first percentage of the text is its confidence, and the final answer names a briefing service as its source_agent (a skipSummarization specialist result included), so neither the outline nor the lifecycle leads to it'),
  m('transformer-reads-on-after-error-frame', ['ABE-TERM-001', 'ABE-LIFE-006'], 'after the error frame\'s ERROR the transformer reads on, and the frames adk-go streams after `event: error` become briefings after the terminal event'),
  m('transformer-alert-on-error-words', ['ABE-ALERT-002', 'ABE-LIFE-004', 'ABE-LIFE-008'], 'an INSIGHT whose text says "error" or "fail" becomes an ALERT ("No errors found" included)'),
  // Defects the calibration on real code found (docs/calibration.md §8, seed 000's own transformer).
  m('transformer-reads-nested-audit-only', ['PL-CONF-001', 'PL-CIT-001', 'PL-REASON-001', 'PL-LEDGER-001'], 'audit entries are read only under `payload` (seed 000 §3.2), so a flat entry (seed 000 §2.2A\'s dataclasses, §9) gives no confidence, source or step'),
  m('transformer-tool-as-source-agent', ['ABE-SRC-001'], 'each tool\'s function response is also shown as an INSIGHT whose source_agent is the tool (seed 000\'s transformer), not an agent'),
  m('transformer-falsy-confidence-fallback', ['PL-CONF-001', 'PL-LEDGER-001'], 'a tool_response\'s confidence is used only when truthy (seed 000 §2.2D `if (toolResponse?.confidence)`), so a stated 0.0 becomes the text heuristic\'s 0.90'),
  // Spec 1.1 (issue 31 §2): a defect in each field 1.1 adds, caught by ABE-SCHEMA-002.
  m11('transformer-1-1-uppercase-types', 'spec 1.1 events keep seed 002\'s uppercase types (STATUS, INSIGHT)'),
  m11('transformer-1-1-no-severity', 'spec 1.1 events carry no severity'),
  m11('transformer-1-1-unknown-ui-target', 'status_update events bind to a UI target the console does not know (toast)'),
  m11('transformer-1-1-no-suggested-actions', 'spec 1.1 events carry no content.suggested_actions list'),
  m11('transformer-1-1-declares-1-0-0', 'spec 1.1 events declare schema_version "1.0.0" (the RANGER Python model\'s default)'),
];
