/**
 * Spec 1.1 mutants (issue 31 §2): the 1.1 reference module (harness/targets/transformer/reference-1-1.ts)
 * with one defect in a field 1.1 adds, each caught by ABE-SCHEMA-002 under `--spec 1.1`. The
 * defects are the ones a transformer written against seed 002 or an older RANGER model makes when
 * it moves to 1.1: seed 002's uppercase types kept, no severity, a UI target the console does not
 * know, no suggested_actions list, the Python model's default schema_version "1.0.0".
 */
import type { BriefingEvent11 } from '../../../reference-impl/transformer/spec-1-1.ts';
import { createTransformer as createReference11, type ModuleTransformer11Options } from '../../targets/transformer/reference-1-1.ts';
import type { ModuleTransformer } from '../../targets/transformer/reference.ts';

const upper: Record<string, string> = { insight: 'INSIGHT', alert: 'ALERT', action_required: 'ACTION', status_update: 'STATUS' };

const mutations11: Record<string, (e: BriefingEvent11) => Record<string, unknown>> = {
  'transformer-1-1-uppercase-types': (e) => ({ ...e, type: upper[e.type] ?? e.type }),
  'transformer-1-1-no-severity': (e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'severity')),
  'transformer-1-1-unknown-ui-target': (e) => ({ ...e, ui_binding: { ...e.ui_binding, target: e.type === 'status_update' ? 'toast' : e.ui_binding.target } }),
  'transformer-1-1-no-suggested-actions': (e) => ({ ...e, content: Object.fromEntries(Object.entries(e.content).filter(([k]) => k !== 'suggested_actions')) }),
  'transformer-1-1-declares-1-0-0': (e) => ({ ...e, schema_version: '1.0.0' }),
};

export const spec11MutationIds: readonly string[] = Object.keys(mutations11);

export function mutant11(id: string): (options: ModuleTransformer11Options) => ModuleTransformer {
  const mutate = mutations11[id];
  if (!mutate) throw new Error(`no spec 1.1 transformer mutation '${id}'; known: ${spec11MutationIds.join(', ')}`);
  return (options) => createReference11({ ...options, onEvent: (e) => options.onEvent(mutate(e) as BriefingEvent11) });
}
