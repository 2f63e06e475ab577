import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadScenarios } from '../../../scenarios/loader.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { EmittedEvent, TransformerObservation } from './observation.ts';
import { checkEndings, checkHeldOpen, checkNotPremature, checkTerminal } from './completion.ts';

const base = loadScenarios().scenarios.find((s) => s.id === 'plain_text') as Scenario;
const seed = 77031;

function ev(index: number, state?: string, at = index): EmittedEvent {
  return { index, line: index + 1, at, value: { event_id: `e${index}`, correlation_id: 's', type: state === 'COMPLETE' ? 'INSIGHT' : 'STATUS', source_agent: 'assistant', content: { summary: 'x' }, ...(state ? { state } : {}) } };
}

function obs(events: EmittedEvent[], patch: Partial<TransformerObservation> = {}, expect: Partial<Scenario['expect']> = {}): TransformerObservation {
  return {
    scenario: { ...base, expect: { ...base.expect, ...expect } }, sessionId: 's', dialect: 'adk-js', ending: 'eof',
    frames: [{ index: 0, data: '{}', kind: 'event', at: 0 }],
    timing: { idleMs: 100, toleranceMs: 100, implementationOwnsIdle: true },
    run: { events, problems: [], exit: { mode: 'module', exitCode: 0, signal: null, timedOut: false, overflowed: false, stderr: '' }, inputClosedAt: 1000 },
    ...patch,
  };
}

const codes = (outcomes: ReturnType<typeof checkTerminal>) => outcomes.flatMap((o) => o.findings.map((f) => f.code));

describe('ABE-TERM-001', () => {
  it('passes one terminal event, last, and fails any other place for it (generated, fast-check seed 77031)', () => {
    console.log(`fast-check seed ${seed}`);
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.nat(), fc.constantFrom('COMPLETE', 'ERROR'), (n, where, state) => {
      const at = where % n;
      const events = Array.from({ length: n }, (_, i) => ev(i, i === at ? state : 'EXECUTING'));
      const found = codes(checkTerminal(obs(events)));
      return at === n - 1 ? found.length === 0 : found.includes('event-after-terminal');
    }), { seed, numRuns: 200 });
  });

  it('reports a second terminal event and a missing one', () => {
    expect(codes(checkTerminal(obs([ev(0, 'THINKING'), ev(1, 'ERROR'), ev(2, 'COMPLETE')])))).toContain('terminal-repeated');
    expect(codes(checkTerminal(obs([ev(0, 'THINKING')])))).toEqual(['terminal-missing']);
  });
});

describe('ABE-TERM-002', () => {
  it('a COMPLETE on a stream that never gave a final answer is premature', () => {
    expect(codes(checkNotPremature(obs([ev(0, 'COMPLETE')], {}, { completionPoint: null })))).toEqual(['complete-without-final-answer']);
  });

  it('a terminal event that arrived before the completion-point frame was written is premature', () => {
    const o = obs([ev(0, 'THINKING', 1), ev(1, 'COMPLETE', 5)], { timing: { idleMs: 100, toleranceMs: 100, implementationOwnsIdle: true, completionPointAt: 20 } });
    expect(codes(checkNotPremature(o))).toEqual(['completion-before-point']);
    const later = obs([ev(0, 'THINKING', 1), ev(1, 'COMPLETE', 25)], { timing: { idleMs: 100, toleranceMs: 100, implementationOwnsIdle: true, completionPointAt: 20 } });
    expect(codes(checkNotPremature(later))).toEqual([]);
  });
});

describe('ABE-TERM-003', () => {
  it('a held-open run completes within the idle window plus tolerance of its last frame, or fails', () => {
    const held = (at: number) => obs([ev(0, 'THINKING', 0), ev(1, 'COMPLETE', at)], { ending: 'hold-open', frames: [{ index: 0, data: '{}', kind: 'event', at: 10 }] });
    expect(codes(checkHeldOpen(held(150)))).toEqual([]);
    expect(codes(checkHeldOpen(held(400)))).toEqual(['held-open-completed-late']);
    expect(checkHeldOpen(obs([ev(0, 'COMPLETE')]))).toEqual([]);
  });
});

describe('ABE-TERM-004: [DONE] against EOF', () => {
  const done = (events: EmittedEvent[], run: Partial<TransformerObservation['run']>) => obs(events, {
    frames: [{ index: 0, data: '{}', kind: 'event', at: 0 }, { index: 1, data: '[DONE]', kind: 'done', at: 1 }],
    run: { events, problems: [], exit: { mode: 'command', exitCode: 0, signal: null, timedOut: false, overflowed: false, stderr: '' }, inputClosedAt: 1500, ...run },
  });

  it('a terminal event that closed the input in the millisecond it was read came before the close (the clean-clone CI of 64c0b4d)', () => {
    // Read at 1,500 ms, past the 1,000 ms hold that a loaded machine's answer overran; its arrival closed the input at 1,500 ms.
    expect(codes(checkEndings(done([ev(0, 'THINKING', 100), ev(1, 'COMPLETE', 1500)], { linesBeforeInputClosed: 2 })))).toEqual([]);
  });

  it('a terminal event read after the close fails, as a timing finding the engine repeats alone', () => {
    const outcome = checkEndings(done([ev(0, 'THINKING', 100), ev(1, 'COMPLETE', 1500)], { linesBeforeInputClosed: 1 }));
    expect(codes(outcome)).toEqual(['done-not-ending-run']);
    expect(outcome[0]?.findings[0]?.timing).toBe(true);
    expect(outcome[0]?.findings[0]?.message).toContain('the input closed 1499 ms after it');
  });

  it('without the order of the lines, the clock judges it', () => {
    expect(codes(checkEndings(done([ev(0, 'THINKING', 100), ev(1, 'COMPLETE', 1500)], {})))).toEqual(['done-not-ending-run']);
    expect(codes(checkEndings(done([ev(0, 'THINKING', 100), ev(1, 'COMPLETE', 1499)], {})))).toEqual([]);
  });
});
