import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLaw, describeParams, lawParams } from '../test/laws/law-runner.ts';
import { createOpenList, createRunState, type OpenSlot } from './run-state.ts';
import type { TapRun } from './types.ts';

const file = 'tap/run-state.test.ts';
const params = lawParams(300);

const runOf = (seq: number): TapRun => ({ seq, name: `tap-run-${seq}`, kind: 'run', method: 'POST', url: '/run_sse', startedAt: '', requestHeaders: [], dialect: 'unknown' });

describe(`createOpenList (${describeParams(params)})`, () => {
  it('holds exactly the items added and not yet removed, in any order of adds and removes (a Set is the model)', async () => {
    // Each step adds a new item (true) or removes the open item at a position (a number).
    const steps = fc.array(fc.oneof(fc.constant(true as const), fc.nat()), { maxLength: 60 });
    await checkLaw(file, 'open list', fc.property(steps, (plan) => {
      const list = createOpenList<number>();
      const model = new Set<number>();
      const slots: Array<OpenSlot<number>> = [];
      let next = 0;
      for (const step of plan) {
        if (step === true) { slots.push(list.add(next)); model.add(next); next++; continue; }
        if (slots.length === 0) continue;
        const [slot] = slots.splice(step % slots.length, 1) as [OpenSlot<number>];
        list.remove(slot);
        list.remove(slot); // a second remove changes nothing
        model.delete(slot.item);
      }
      return list.size() === model.size && [...list.items()].sort((a, b) => a - b).join() === [...model].sort((a, b) => a - b).join();
    }), params);
  });
});

describe('createRunState', () => {
  it('keeps one value per run and per state, and forgets a run\'s value on clear', () => {
    const a = createRunState<string>('a');
    const b = createRunState<number>('b');
    const one = runOf(1);
    const two = runOf(2);
    a.set(one, 'x');
    b.set(one, 7);
    a.set(two, 'y');
    expect([a.get(one), b.get(one), a.get(two), b.get(two)]).toEqual(['x', 7, 'y', undefined]);
    a.clear(one);
    expect([a.get(one), b.get(one), a.get(two)]).toEqual([undefined, 7, 'y']);
    // The state is not one of the run's own fields: reports and saved scenarios never see it.
    expect(Object.keys(one)).toEqual(Object.keys(runOf(3)));
    expect(JSON.stringify(one)).toBe(JSON.stringify(runOf(1)));
    // Clearing a run that never had the state gives it none (no property, enumerable or not).
    const three = runOf(3);
    a.clear(three);
    expect(Object.getOwnPropertySymbols(three)).toEqual([]);
    // A copy of the run (tap/transform.ts makes one per transformed run) starts with no state.
    expect(b.get({ ...one })).toBeUndefined();
  });
});
