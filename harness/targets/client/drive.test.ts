import { describe, expect, it } from 'vitest';
import type { ChildObservation, ChildScript } from '../../child.ts';
import { driveClientCommand, driveClientModule, driveClientUnstalled, runWithin, watchingTheLoop, type Drive } from './drive.ts';

const windows = { idleMs: 1000, graceMs: 250, callIdleMs: 3000 };
const chunk = (text: string, delayMs: number) => ({ bytes: Buffer.from(text), delayMs });

/** A run that wrote its input at `inputAt`, closed stdin at `closedAt` and reported `end`. */
const observed = (inputAt: number[], closedAt: number | undefined, end: string) => async (script: ChildScript): Promise<ChildObservation> => ({
  command: script.command, lines: [{ t: 0, text: '{"data":"x"}' }, { t: 1, text: JSON.stringify({ end, completed: end !== 'idle' }) }],
  stderr: '', stderrDropped: 0, exitCode: 0, signal: null, timedOut: false, killed: false, overflowed: false, durationMs: 10, inputAt,
  ...(closedAt !== undefined ? { stdinClosedAt: closedAt, linesBeforeStdinClosed: 1 } : {}),
});

const drive = (end: string, stallMs: number): Drive => ({ records: [{ line: 1, value: { end, completed: end !== 'idle' } }], problems: [], exit: { timedOut: false, exitCode: 0, signal: null, stderr: '' }, durationMs: 0, feedStallMs: stallMs });

describe('driveClientCommand: the feed stall', () => {
  it('counts a late EOF as a pause: stdin closed 300 ms after the last chunk where the script closes it at once', async () => {
    const d = await driveClientCommand('client', { chunks: [chunk('data: a\n\n', 0), chunk('data: b\n\n', 20)], transport: 'eof', windows, boundMs: 5000, runChild: observed([5, 25], 325, 'final-rule') });
    expect(d.feedStallMs).toBe(300);
  });

  it('counts EOF from when it reached the pipe: stdin closed at once, the end made 300 ms later on a starved event loop', async () => {
    const late = async (script: ChildScript): Promise<ChildObservation> => ({ ...(await observed([5, 25], 25, 'final-rule')(script)), stdinEofAt: 325 });
    const d = await driveClientCommand('client', { chunks: [chunk('data: a\n\n', 0), chunk('data: b\n\n', 20)], transport: 'eof', windows, boundMs: 5000, runChild: late });
    expect(d.feedStallMs).toBe(300);
  });

  it('counts a chunk written later than its scripted gap, and never the first write (start-up precedes it)', async () => {
    const d = await driveClientCommand('client', { chunks: [chunk('data: a\n\n', 0), chunk('data: b\n\n', 20)], transport: 'eof', windows, boundMs: 5000, startupMs: 400, runChild: observed([900, 1020], 1021, 'eof') });
    // The second chunk 100 ms late, and EOF 1 ms later still: the run of writes was stretched 101 ms.
    expect(d.feedStallMs).toBe(101);
  });

  it('takes a held-open connection\'s wait before closing stdin as scripted', async () => {
    const hold = windows.idleMs + windows.graceMs + 1000;
    const d = await driveClientCommand('client', { chunks: [chunk('data: a\n\n', 0)], transport: 'hold-open', windows, boundMs: 5000, runChild: observed([0], hold + 5, 'final-rule') });
    expect(d.feedStallMs).toBe(5);
  });
});

describe('driveClientUnstalled', () => {
  const signal = new AbortController().signal;

  it('drives again when the client ended by its grace after a pause of 60% of the grace or more, three drives at most', async () => {
    const drives = [drive('final-rule', 300), drive('eof', 0)];
    const retries: number[] = [];
    const r = await driveClientUnstalled(async () => drives.shift() as Drive, windows, signal, (ms) => retries.push(ms));
    expect(retries).toEqual([300]);
    expect(r.stalled).toBe(false);
    expect(r.driven.records[0]?.value).toEqual({ end: 'eof', completed: true });
    let calls = 0;
    const always = await driveClientUnstalled(async () => { calls += 1; return drive('final-rule', 200); }, windows, signal);
    expect(calls).toBe(3);
    expect(always.stalled).toBe(true);
  });

  it('judges the first drive when the client ended by anything but its clock, or the pause was shorter', async () => {
    for (const [end, stallMs, idle] of [['eof', 900, 1000], ['final-rule', 149, 1000], ['idle', 599, 1000], ['cut', 5000, 1000]] as const) {
      let calls = 0;
      const r = await driveClientUnstalled(async () => { calls += 1; return drive(end, stallMs); }, { ...windows, idleMs: idle }, signal);
      expect(calls, `${end} after a ${stallMs} ms pause`).toBe(1);
      expect(r.stalled).toBe(false);
    }
    let calls = 0;
    await driveClientUnstalled(async () => { calls += 1; return drive('idle', 600); }, windows, signal);
    expect(calls).toBe(3);
  });
});

describe('watchingTheLoop: a module client\'s feed stall', () => {
  const signal = new AbortController().signal;
  const run = (blockMs: number) => watchingTheLoop(() => driveClientModule(() => ({
    run: async (_request, onRecord) => {
      await new Promise((r) => setTimeout(r, 30));
      const t = performance.now();
      while (performance.now() - t < blockMs) { /* the harness's event loop held, as a loaded machine holds it */ }
      await new Promise((r) => setTimeout(r, 30));
      onRecord({ end: 'eof', completed: true });
    },
  }), { baseUrl: 'http://127.0.0.1:9', request: {}, windows, boundMs: 5000, signal }));

  it('is the event loop\'s longest stall during the run: the module\'s timers share the loop', async () => {
    expect((await run(300)).feedStallMs).toBeGreaterThanOrEqual(250);
    expect((await run(0)).feedStallMs).toBeLessThan(100);
  });
});

describe('runWithin: a module\'s bound and the harness\'s feed', () => {
  const never = { run: () => new Promise<void>(() => {}) };

  it('says the harness was still writing the body when the bound ran out', async () => {
    const ran = await runWithin(never, {}, () => {}, 100, undefined, { writing: () => true });
    expect(ran).toEqual({ timedOut: true, stillFed: true });
  });

  it('says nothing of the feed when the body was whole by the bound, or when there is no feed', async () => {
    expect(await runWithin(never, {}, () => {}, 100, undefined, { writing: () => false })).toEqual({ timedOut: true });
    expect(await runWithin(never, {}, () => {}, 100)).toEqual({ timedOut: true });
  });

  it('ends the run as the bound does once `overBudget` says so, long before the bound', async () => {
    let reads = 0;
    const t0 = performance.now();
    expect(await runWithin(never, {}, () => {}, 20_000, undefined, undefined, () => ++reads >= 3)).toEqual({ timedOut: true });
    expect(performance.now() - t0).toBeLessThan(20_000);
    expect(reads).toBe(3);
  });

  it('reads the feed only at the bound: a client that ends in time is not asked about it', async () => {
    let asked = 0;
    const ran = await runWithin({ run: (_r, onRecord) => { onRecord({ end: { transport: 'eof' } }); } }, {}, () => {}, 100, undefined, { writing: () => { asked++; return true; } });
    expect(ran).toEqual({ timedOut: false });
    expect(asked).toBe(0);
  });
});
