import { describe, expect, it } from 'vitest';
import { checkAbort, checkBackpressure, checkEmpty, checkFidelity, firstDifference } from './checks.ts';

const event = { id: 'a', modelVersion: 'm', actions: { stateDelta: {}, endOfAgent: true }, content: { parts: [{ text: 't', thoughtSignature: 'c2ln' }] } };

describe('firstDifference', () => {
  it('ignores key order and finds a dropped nested field, an added one and a changed value', () => {
    expect(firstDifference({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBeUndefined();
    expect(firstDifference(event, { ...event, content: { parts: [{ text: 't' }] } })).toEqual({ path: '/content/parts/0/thoughtSignature', yielded: 'c2ln', served: undefined });
    expect(firstDifference({ a: 1 }, { a: 1, model_version: 'm' })).toEqual({ path: '/model_version', yielded: undefined, served: 'm' });
    expect(firstDifference({ a: [1, 2] }, { a: [1] })).toEqual({ path: '/a/1', yielded: 2, served: undefined });
  });
});

describe('checkFidelity', () => {
  it('passes served events equal to the yielded ones', () => {
    expect(checkFidelity('r', [event], [JSON.parse(JSON.stringify(event))])).toEqual([]);
  });
  it('names a dropped actions.endOfAgent and a renamed modelVersion', () => {
    const { modelVersion: _m, ...renamed } = event;
    const found = checkFidelity('r', [event, event], [{ ...event, actions: { stateDelta: {} } }, { ...renamed, model_version: 'm' }]);
    expect(found.map((f) => [f.code, f.path])).toEqual([['field-dropped', 'r/event[0]/actions/endOfAgent'], ['field-dropped', 'r/event[1]/modelVersion']]);
  });
  it('counts events that never reached the client and events the Runner never yielded', () => {
    expect(checkFidelity('r', [event, event], [event]).map((f) => f.code)).toEqual(['event-dropped']);
    expect(checkFidelity('r', [event], [event, event]).map((f) => f.code)).toEqual(['event-added']);
  });
});

describe('checkAbort', () => {
  const base = { eventsRead: 3, aborted: false, callsAtClose: 4, callsAfterBound: 4, boundMs: 2000 };
  it('passes a run aborted or ended, with at most the call in flight after the close', () => {
    expect(checkAbort({ ...base, aborted: true, callsAfterBound: 5 }).status).toBe('passed');
    expect(checkAbort({ ...base, ended: 'returned' }).status).toBe('passed');
  });
  it('fails a run still open, and one that kept calling the model before it stopped', () => {
    expect(checkAbort(base).findings.map((f) => f.code)).toEqual(['run-not-stopped']);
    expect(checkAbort({ ...base, ended: 'completed', callsAfterBound: 9 }).findings.map((f) => f.code)).toEqual(['model-still-called']);
  });
  it('is untested when no event was served', () => {
    expect(checkAbort({ ...base, eventsRead: 0 }).status).toBe('untested');
  });
});

describe('checkBackpressure', () => {
  const base = { status: 200, offered: 4001, eventBytes: 16000, boundEvents: 1500, waitedMs: 1500 };
  it('passes within the bound, fails beyond it, is untested without a stream', () => {
    expect(checkBackpressure({ ...base, pulled: 300 }).status).toBe('passed');
    expect(checkBackpressure({ ...base, pulled: 4001 }).findings[0]?.code).toBe('no-backpressure');
    expect(checkBackpressure({ ...base, status: 404, pulled: 0 }).status).toBe('untested');
  });
});

describe('checkEmpty', () => {
  it('fails each empty message that reached the model, whatever the answer', () => {
    const out = checkEmpty([{ label: 'no-parts', message: {}, status: 400, modelCalls: 0 }, { label: 'empty-text', message: {}, status: 200, modelCalls: 1 }]);
    expect(out.findings.map((f) => f.path)).toEqual(['probe:adk-server-empty-message/empty-text']);
  });
  it('is untested when no empty message was answered', () => {
    expect(checkEmpty([{ label: 'no-parts', message: {}, modelCalls: 0 }]).status).toBe('untested');
  });
});
