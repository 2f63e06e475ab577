/**
 * BLK-FLOW-004: "For events not tied to a specific block index (e.g., message_start,
 * message_delta, llm_call_completed, stream_end from ATP, ping): These can be yielded without
 * modifying their `index`" (seed 003 §3.1). They pass through, one for each input that gives one,
 * and carry no `index`. stream_end's count and place are BLK-FLOW-002's.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { at, type ActualEvent } from './actual.ts';
import type { ExpectedTurn } from './expected-model.ts';
import { outcomeOf } from './outcome.ts';
import type { TurnCase } from './types.ts';

const requirement = 'BLK-FLOW-004';
const indexFree = ['message_start', 'message_delta', 'llm_call_completed', 'ping', 'stream_end'] as const;
const counted = ['message_start', 'message_delta', 'llm_call_completed', 'ping'] as const;

export function checkIndexFree(c: TurnCase, expected: ExpectedTurn, actual: readonly ActualEvent[]): CheckOutcome {
  const findings: Finding[] = [];
  for (const e of actual) {
    if (!(indexFree as readonly string[]).includes(e.type) || !('index' in e.data)) continue;
    findings.push({ requirement, code: 'index-on-index-free-event', path: at(c, e.pos, '/data/index'), message: `${c.label}: ${e.type} is not tied to a block, so it carries no index; it carries ${JSON.stringify(e.data.index)}`, expected: 'no index', actual: e.data.index });
  }
  for (const type of counted) {
    const want = expected.events.filter((e) => e.type === type).length;
    const got = actual.filter((e) => e.type === type).length;
    if (want !== got) {
      findings.push({ requirement, code: 'index-free-event-count', path: `${c.pathPrefix}output`, message: `${c.label}: the input gives ${want} ${type} event(s) to pass through; the output has ${got}`, expected: want, actual: got });
    }
  }
  return outcomeOf(requirement, c.scenario, findings);
}
