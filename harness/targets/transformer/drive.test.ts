import { describe, expect, it } from 'vitest';
import { cameAfterClose } from '../../checks/transformer/observation.ts';
import { driveCommand, driveUnstalled, type Drive } from './drive.ts';

/** A drive whose lines were scripted 100 ms apart and written at `written`. */
const driveAt = (written: number[]): Drive => ({
  run: { events: [], problems: [], exit: { exitCode: 0 }, inputClosedAt: written.at(-1) ?? 0 } as unknown as Drive['run'],
  fedAt: written, writtenAt: written, scriptedAt: written.map((_, i) => i * 100),
});

describe('driveUnstalled', () => {
  it('drives again while a line came later than scripted by 60% of the idle window or more, module or command, three drives at most', async () => {
    // A stall of 409 ms (509 ms between two lines scripted 100 ms apart) against a 500 ms idle window.
    const drives = [driveAt([0, 100, 609]), driveAt([0, 100, 200])];
    const retries: number[] = [];
    const { driven, stallMs } = await driveUnstalled(async () => drives.shift() as Drive, { idleMs: 500, signal: new AbortController().signal, onRetry: (ms) => retries.push(ms) });
    expect(retries).toEqual([409]);
    expect(stallMs).toBe(0);
    expect(driven.writtenAt).toEqual([0, 100, 200]);
    let calls = 0;
    const always = await driveUnstalled(async () => { calls += 1; return driveAt([0, 500]); }, { idleMs: 500, signal: new AbortController().signal });
    expect(calls).toBe(3);
    expect(always.stallMs).toBe(400);
  });

  it('takes a pause under 60% of the idle window as the script', async () => {
    let calls = 0;
    const { stallMs } = await driveUnstalled(async () => { calls += 1; return driveAt([0, 100, 499]); }, { idleMs: 500, signal: new AbortController().signal });
    expect(calls).toBe(1);
    expect(stallMs).toBe(299);
  });
});

describe('driveCommand: the wait after [DONE]', () => {
  const spec = (holdMs: number) => ({
    lines: [{ data: '{"author":"a","content":{"parts":[{"text":"hi"}]}}', delayMs: 0 }, { data: '[DONE]', delayMs: 0 }],
    sessionId: 's', enhanced: true, idleMs: 500, holdMs, holdUntilTerminal: true as const, boundMs: 5000, signal: new AbortController().signal,
  });
  const complete = `echo '{"state":"COMPLETE","content":{"summary":"done"}}'`;

  it('closes the input as soon as the command wrote its terminal event', async () => {
    const t0 = performance.now();
    const d = await driveCommand(`sh -c 'head -n 2 > /dev/null; ${complete.replace(/'/g, `'\\''`)}; cat > /dev/null'`, spec(3000));
    expect(performance.now() - t0).toBeLessThan(2500);
    expect(d.run.events).toHaveLength(1);
    expect(d.run.events[0]!.at).toBeLessThan(d.run.inputClosedAt);
  });

  it('a command that waits for EOF gets the whole wait, and its terminal event comes after the input was closed', async () => {
    const d = await driveCommand(`sh -c 'cat > /dev/null; ${complete.replace(/'/g, `'\\''`)}'`, spec(300));
    expect(d.run.events).toHaveLength(1);
    expect(d.run.events[0]!.at).toBeGreaterThanOrEqual(d.run.inputClosedAt);
    expect(cameAfterClose(d.run, d.run.events[0]!)).toBe(true);
  });

  it('a terminal event that answers past the hold closed the input in the millisecond it was read: it came before the close, by the order of the lines', async () => {
    // The clock cannot tell this: the answer read at 1,500 ms closed the input at 1,500 ms (rounded).
    const obs = { command: 'x', lines: [{ t: 1500, text: '{"state":"COMPLETE","content":{"summary":"done"}}' }], stderr: '', stderrDropped: 0, exitCode: 0, signal: null, timedOut: false, killed: false, overflowed: false, durationMs: 1501, inputAt: [0, 0], stdinClosedAt: 1500, linesBeforeStdinClosed: 1 };
    const d = await driveCommand('x', { ...spec(1000), runChild: async () => obs });
    expect(d.run.inputClosedAt).toBe(1500);
    expect(cameAfterClose(d.run, d.run.events[0]!)).toBe(false);
    // A line read after the close, in the same millisecond, came after it.
    const late = await driveCommand('x', { ...spec(1000), runChild: async () => ({ ...obs, linesBeforeStdinClosed: 0 }) });
    expect(cameAfterClose(late.run, late.run.events[0]!)).toBe(true);
  });

  it('a command busy past the hold after [DONE] answers before its input is closed (a real process)', async () => {
    // Works 600 ms after reading [DONE] against a 200 ms hold, then answers: the wait goes on while it works.
    const script = `head -n 2 > /dev/null; node -e 'const e = Date.now() + 600; while (Date.now() < e);'; ${complete}; cat > /dev/null`;
    const d = await driveCommand(`sh -c '${script.replace(/'/g, `'\\''`)}'`, spec(200));
    expect(d.run.events).toHaveLength(1);
    expect(d.run.linesBeforeInputClosed).toBe(1);
    expect(cameAfterClose(d.run, d.run.events[0]!)).toBe(false);
  });
});

describe('driveCommand: when a frame reached the command', () => {
  it('is when it was written, not when it was scheduled: an answer to a frame whose timer fired early is not before that frame', async () => {
    // The timer of the second line fired 0.6 ms early (rounded: written at 9 ms, scheduled at 10 ms)
    // and the command answered at once, at 9 ms: 1 ms "before" the frame by the schedule.
    const obs = { command: 'x', lines: [{ t: 9, text: '{"state":"COMPLETE"}' }], stderr: '', stderrDropped: 0, exitCode: 0, signal: null, timedOut: false, killed: false, overflowed: false, durationMs: 20, inputAt: [0, 9] };
    const d = await driveCommand('x', {
      lines: [{ data: 'a', delayMs: 0 }, { data: 'b', delayMs: 10 }],
      sessionId: 's', enhanced: true, idleMs: 500, holdMs: 0, boundMs: 5000, signal: new AbortController().signal,
      runChild: async () => obs,
    });
    expect(d.scriptedAt).toEqual([0, 10]);
    expect(d.fedAt).toEqual([0, 9]);
    expect(d.run.events[0]?.at).toBeGreaterThanOrEqual(d.fedAt[1] ?? Infinity);
  });

  it('keeps the schedule for a line never written (the process ended first)', async () => {
    const obs = { command: 'x', lines: [], stderr: '', stderrDropped: 0, exitCode: 1, signal: null, timedOut: false, killed: false, overflowed: false, durationMs: 5, inputAt: [0] };
    const d = await driveCommand('x', {
      lines: [{ data: 'a', delayMs: 0 }, { data: 'b', delayMs: 10 }],
      sessionId: 's', enhanced: true, idleMs: 500, holdMs: 0, boundMs: 5000, signal: new AbortController().signal,
      runChild: async () => obs,
    });
    expect(d.fedAt).toEqual([0, 10]);
  });
});
