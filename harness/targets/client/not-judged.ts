/**
 * A client run the machine, not the client, kept from being judged: the harness fed it late (a
 * stall), or its bound ran out while the harness was still writing its body beside the other runs.
 * Every requirement the run exercises is untested with the reason, and the check says `machine`, so
 * the engine repeats it alone (engine-confirm.ts).
 */
import type { TimelineEntry } from '../../model.ts';
import { untested } from '../../checks/transformer/outcome.ts';
import type { ScenarioCheck } from '../types.ts';
import type { ClientWindows, Drive } from './drive.ts';

/** The timeline's word for a drive run again because the harness fed it late. */
export function stallNote(ms: number, what?: string): TimelineEntry {
  return { t: 0, kind: 'note', summary: `${what ? `${what}: ` : ''}the harness delivered the body ${Math.round(ms)} ms later than scripted (a loaded machine) and the client ended by its own clock; run again` };
}

/** Why a run the harness could not feed on time is not judged. */
export function notJudged(stallMs: number, w: ClientWindows): string {
  return `not judged: the harness could not deliver the body on time (a ${Math.round(stallMs)} ms pause the script does not have, against a ${w.graceMs} ms grace and a ${w.idleMs} ms idle window, three times); the machine is overloaded: run again, or with --jobs 1`;
}

/** Why a module's run whose bound ran out while the harness was still writing its body is not judged beside the others. */
export function stillFedNotJudged(boundMs: number): string {
  return `not judged: the harness was still writing the body when the ${boundMs} ms bound ran out, its writes one per turn of the event loop it shares with the other runs; the run is repeated alone`;
}

/** `check` not judged for `why`: each requirement it judged untested, the timeline after `before`, and `machine` set. */
export function notJudgedCheck(check: ScenarioCheck, scenario: string, why: string, before: TimelineEntry[]): ScenarioCheck {
  const judged = [...new Set(check.outcomes.map((o) => o.requirement))];
  return { ...check, outcomes: judged.map((id) => untested(id, scenario, `${scenario}: ${why}`)), timeline: [...before, ...check.timeline], machine: why };
}

/** A drive that stalled every time, marked unusable with the reason. */
export const unstalled = (r: { driven: Drive; stallMs: number; stalled: boolean }, w: ClientWindows): Drive => (r.stalled ? { ...r.driven, unusable: notJudged(r.stallMs, w) } : r.driven);
