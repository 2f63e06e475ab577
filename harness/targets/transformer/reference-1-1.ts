/**
 * The reference transformer emitting spec 1.1 (reference-impl/transformer/spec-1-1.ts), under the
 * module contract: the module of reference.ts with each briefing put in 1.1's form. Its events
 * declare `schema_version: "1.1.0"`, so a run without --spec judges it against spec 1.1.
 */
import { toSpec11, type BriefingEvent11 } from '../../../reference-impl/transformer/spec-1-1.ts';
import { createTransformer as createReference, type ModuleTransformer, type ModuleTransformerOptions } from './reference.ts';

export type ModuleTransformer11Options = Omit<ModuleTransformerOptions, 'onEvent'> & { onEvent: (event: BriefingEvent11) => void };

export function createTransformer(options: ModuleTransformer11Options): ModuleTransformer {
  if (typeof options?.onEvent !== 'function') throw new TypeError('createTransformer: options.onEvent must be a function receiving each AgentBriefingEvent');
  const onEvent = options.onEvent;
  return createReference({ ...options, onEvent: (event) => onEvent(toSpec11(event)) });
}
