/**
 * Law: the yes/no questions asked of every event (reference-impl/transformer/adk-event.ts
 * isAnswerEvent, isMetadataOnly, somePart) answer as their definitions over the lists do. They read
 * the parts in place for speed (the tap asks them of every live event); these definitions are the
 * ones docs/completion.md states, written with partsOf, textOf, callsOf, responsesOf and
 * longRunningIdsOf.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { callsOf, errorCodeOf, isAnswerEvent, isCallPart, isMetadataOnly, isPartial, isResponsePart, longRunningIdsOf, partsOf, responsesOf, somePart, textOf } from '../../reference-impl/transformer/adk-event.ts';
import type { AdkEvent } from '../../reference-impl/transformer/types.ts';
import { checkLaw, describeParams, lawParams } from './law-runner.ts';

const file = 'test/laws/event-predicates.test.ts';
const params = lawParams(2000);

/** Anything the wire may carry where a value is expected: the predicates trust nothing. */
const junk = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.string({ maxLength: 3 }), fc.boolean(), fc.constant([]), fc.constant({}));
const call = fc.record({ id: fc.oneof(fc.constantFrom('c1', 'c2'), junk), name: fc.oneof(fc.constant('tool'), junk), args: fc.oneof(fc.constant({ a: 1 }), junk) }, { requiredKeys: [] });
const part = fc.oneof(
  fc.record({ text: fc.oneof(fc.constantFrom('', 'hi', 'x'), junk), thought: fc.oneof(fc.boolean(), junk) }, { requiredKeys: [] }),
  fc.record({ functionCall: fc.oneof(call, junk) }),
  fc.record({ functionResponse: fc.oneof(call, junk) }),
  fc.record({ text: fc.constantFrom('a', ''), functionCall: fc.oneof(call, junk), functionResponse: fc.oneof(call, junk) }, { requiredKeys: [] }),
  junk,
);
const event: fc.Arbitrary<AdkEvent> = fc.record({
  content: fc.oneof(fc.record({ parts: fc.oneof(fc.array(part, { maxLength: 4 }), junk) }, { requiredKeys: [] }), junk),
  partial: fc.oneof(fc.boolean(), junk),
  longRunningToolIds: fc.oneof(fc.array(fc.oneof(fc.constantFrom('c1', 'c2'), junk), { maxLength: 3 }), junk),
  errorCode: fc.oneof(fc.constantFrom('SAFETY', ''), junk),
}, { requiredKeys: [] }) as fc.Arbitrary<AdkEvent>;

describe(`event predicates (${describeParams(params)})`, () => {
  it('isAnswerEvent, isMetadataOnly and somePart answer as their definitions over partsOf, textOf, callsOf, responsesOf and longRunningIdsOf', async () => {
    await checkLaw(file, 'predicates', fc.property(event, (e) => {
      const answer = !isPartial(e) && textOf(e).length > 0 && callsOf(e).length === 0 && responsesOf(e).length === 0 && longRunningIdsOf(e).length === 0 && errorCodeOf(e) === undefined;
      const metadataOnly = partsOf(e).length === 0 && errorCodeOf(e) === undefined;
      return isAnswerEvent(e) === answer
        && isMetadataOnly(e) === metadataOnly
        && somePart(e, isCallPart) === (callsOf(e).length > 0)
        && somePart(e, isResponsePart) === (responsesOf(e).length > 0);
    }), params);
  });
});
