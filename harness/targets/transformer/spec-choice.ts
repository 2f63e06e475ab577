/**
 * Which AgentBriefingEvent spec version a transformer runner judges against (docs/versioning.md
 * "Spec versions"): the one given (--spec, config `spec`), else the one its first events declare
 * (`schema_version`), else 1.0. The first run that emits events decides, once; requirements of the
 * other version become not applicable, with the reason, in the runner's `notApplicable`.
 */
import { requirements } from '../../requirements/index.ts';
import { detectSpec, outsideSpecReason, type SpecChoice, type SpecVersion } from '../../spec-version.ts';

export type SpecChoiceState = {
  /** The choice once made (given at once, detected on the first run with events). */
  choice: () => SpecChoice | undefined;
  /** The version to judge a run against: the choice, or what this run's events declare when none is made yet. */
  observe: (events: readonly unknown[]) => SpecVersion;
  /** The version so far (1.0 before any choice). */
  version: () => SpecVersion;
};

export function createSpecChoice(given: SpecVersion | undefined, notApplicable: Record<string, string>): SpecChoiceState {
  let choice: SpecChoice | undefined;
  const decide = (made: SpecChoice): void => {
    choice = made;
    for (const r of requirements.values()) {
      if (r.part !== 'transformer') continue;
      const reason = outsideSpecReason(r, made);
      if (reason) notApplicable[r.id] = reason;
    }
  };
  if (given) decide({ version: given, how: 'given', detail: `--spec ${given}` });
  return {
    choice: () => choice,
    observe(events) {
      if (!choice && events.length > 0) decide(detectSpec(events.slice(0, 3)));
      return choice?.version ?? '1.0';
    },
    version: () => choice?.version ?? '1.0',
  };
}
