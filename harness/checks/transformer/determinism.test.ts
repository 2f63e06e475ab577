import { describe, expect, it } from 'vitest';
import { checkDeterminism, runDifference } from './determinism.ts';
import type { TransformerObservation, TransformerRun } from './observation.ts';

const run = (values: Array<Record<string, unknown>>): TransformerRun => ({
  events: values.map((value, index) => ({ index, line: index + 1, at: index, value })),
  problems: [],
  exit: { mode: 'module', exitCode: null, signal: null, timedOut: false, overflowed: false, stderr: '' },
  inputClosedAt: 0,
});
const event = (id: string, summary: string, parent?: string) => ({ event_id: id, timestamp: `t-${id}`, correlation_id: 'c', type: 'STATUS', content: { summary }, ...(parent !== undefined ? { parent_event_id: parent } : {}) });

describe('runDifference (ABE-DET-001 compared as a repeat)', () => {
  it('ignores ids, timestamps and correlation ids, and compares a parent as the position it names', () => {
    const a = run([event('a1', 'x'), event('a2', 'y', 'a1')]);
    const b = run([{ ...event('b1', 'x'), correlation_id: 'other' }, event('b2', 'y', 'b1')]);
    expect(runDifference(a, b)).toBeUndefined();
    expect(runDifference(a, run([event('b1', 'x'), event('b2', 'y', 'b2')]))).toEqual({ path: 'event[1]/parent_event_id', a: '#0', b: '#1' });
  });

  it('names the first differing field of the first differing event, and an event one run lacks', () => {
    expect(runDifference(run([event('a', 'x'), event('b', 'y')]), run([event('a', 'x'), event('b', 'z')]))).toEqual({ path: 'event[1]/content/summary', a: 'y', b: 'z' });
    expect(runDifference(run([event('a', 'x')]), run([event('a', 'x'), event('b', 'y')]))).toEqual({ path: 'event[1]', a: '(absent)', b: { type: 'STATUS', content: { summary: 'y' } } });
  });
});

describe('checkDeterminism', () => {
  it('does not compare an output the harness stopped at its limit: untested with why, never a difference', () => {
    // The same event forever, cut where a read ended: 3 events in one run, 2 in the other.
    const flood = (n: number): TransformerRun => ({ ...run(Array.from({ length: n }, () => event('a', 'x'))), exit: { mode: 'command', exitCode: null, signal: 'SIGTERM', timedOut: false, overflowed: true, stderr: '' } });
    const obs = { scenario: { id: 'plain_text' }, run: flood(3), repeat: flood(2) } as unknown as TransformerObservation;
    const [outcome, ...rest] = checkDeterminism(obs);
    expect(rest).toEqual([]);
    expect(outcome?.status).toBe('untested');
    expect(outcome?.findings).toEqual([]);
    expect(outcome?.reason).toMatch(/^not compared: the judged run wrote more than the harness keeps and was stopped/);
  });
});
