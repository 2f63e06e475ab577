import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { runChild } from './child.ts';
import { feedWatch } from './loop-stall.ts';

const node = (code: string) => `${JSON.stringify(process.execPath)} -e ${JSON.stringify(code)}`;

describe('runChild observes a child whatever it does', () => {
  test('echoes stdin lines back with arrival times and exit code 0', async () => {
    const obs = await runChild({ command: node("process.stdin.pipe(process.stdout)"), input: [{ text: 'a' }, { text: 'b', delayMs: 50 }], timeoutMs: 5000 });
    expect(obs.lines.map((l) => l.text)).toEqual(['a', 'b']);
    expect(obs.exitCode).toBe(0);
    expect(obs.timedOut).toBe(false);
  });

  test('a process that exits at once is recorded, not thrown', async () => {
    const obs = await runChild({ command: node('process.exit(3)'), input: [{ text: 'x' }], timeoutMs: 5000 });
    expect(obs.exitCode).toBe(3);
    expect(obs.lines).toEqual([]);
  });

  test('a command that does not exist is recorded as exit 127 with its stderr', async () => {
    const obs = await runChild({ command: 'definitely-not-a-command-adk', input: [], timeoutMs: 5000 });
    expect(obs.exitCode).toBe(127);
    expect(obs.stderr).toMatch(/not found/);
  });

  test('a process that never ends is stopped at its time bound', async () => {
    const obs = await runChild({ command: node('setInterval(() => {}, 1000)'), input: [], timeoutMs: 300 });
    expect(obs.timedOut).toBe(true);
    expect(obs.signal ?? obs.exitCode).not.toBeNull();
  });

  test('a process that ignores SIGTERM is killed with SIGKILL after the grace period', async () => {
    // The shell ignores SIGTERM from its first instruction: a node child would only once its handler
    // is installed, which a loaded machine can delay past the timeout (SIGTERM then ends it).
    const obs = await runChild({ command: "trap '' TERM; echo ready; while :; do sleep 0.05; done", input: [], timeoutMs: 300, killGraceMs: 200 });
    expect(obs.timedOut).toBe(true);
    expect(obs.killed).toBe(true);
  });

  test('stderr-only output is kept and capped', async () => {
    const obs = await runChild({ command: node("process.stderr.write('x'.repeat(5000))"), input: [], timeoutMs: 5000, maxStderrBytes: 1000 });
    expect(obs.stderr.length).toBe(1000);
    expect(obs.stderrDropped).toBe(4000);
  });

  test('a flood of stdout is cut at the byte bound and the child stopped', async () => {
    const obs = await runChild({ command: node("const s='y'.repeat(65536)+'\\n'; (function w(){ while(process.stdout.write(s)); process.stdout.once('drain', w); })()"), input: [], timeoutMs: 10_000, maxStdoutBytes: 1_000_000 });
    expect(obs.overflowed).toBe(true);
    expect(obs.timedOut).toBe(false);
  });

  test('the line a flood was cut in is the harness\'s cut, not a partial line of the implementation\'s', async () => {
    const obs = await runChild({ command: node("const s='y'.repeat(65536); (function w(){ while(process.stdout.write(s)); process.stdout.once('drain', w); })()"), input: [], timeoutMs: 10_000, maxStdoutBytes: 1_000_000 });
    expect(obs.overflowed).toBe(true);
    expect(obs.lines).toEqual([]);
    expect(obs.partialLine).toBeUndefined();
  });

  test('a line of megabytes is read in time linear in its length: the writer exits within its bound, the line whole', async () => {
    // 12 MB in one line, then exit once it is written: a reader that searched the whole line so far for its LF at
    // every 64 KB piece kept the writer waiting on a full pipe past its bound.
    const size = 12 * 1024 * 1024;
    const obs = await runChild({ command: node(`process.stdout.write('z'.repeat(${size}) + '\\n', () => process.exit(0))`), input: [], timeoutMs: 3000 });
    expect(obs.timedOut).toBe(false);
    expect(obs.exitCode).toBe(0);
    expect(obs.lines.map((l) => l.text.length)).toEqual([size]);
  });

  test('a trailing line without a newline is kept as a partial line', async () => {
    const obs = await runChild({ command: node("process.stdout.write('{\"a\":1}\\n{\"b\"')"), input: [], timeoutMs: 5000 });
    expect(obs.lines.map((l) => l.text)).toEqual(['{"a":1}']);
    expect(obs.partialLine).toBe('{"b"');
  });

  test('stopWhen ends the child early once the wanted line arrives', async () => {
    const obs = await runChild({ command: node("console.log('one'); console.log('stop'); setInterval(() => {}, 1000)"), input: [], timeoutMs: 10_000, stopWhen: (l) => l === 'stop' });
    expect(obs.lines.map((l) => l.text)).toEqual(['one', 'stop']);
    expect(obs.timedOut).toBe(false);
  });

  test('exitAfter stops a child that lingers after its last line once stdin is closed, and not before', async () => {
    // Writes its last line at once and never exits; stdin is held open 300 ms after the input.
    const lingering = await runChild({ command: node("console.log('last'); setInterval(() => {}, 1000)"), input: [{ text: 'x' }], holdStdinMs: 300, timeoutMs: 30_000, exitAfter: { last: (l) => l === 'last', graceMs: 200 } });
    expect(lingering).toMatchObject({ lingered: true, timedOut: false, lines: [{ text: 'last' }] });
    expect(lingering.stdinClosedAt).toBeGreaterThanOrEqual(300);
    // One that exits by itself within the grace is not marked.
    const exits = await runChild({ command: node("console.log('last'); setTimeout(() => process.exit(0), 50)"), input: [], timeoutMs: 30_000, exitAfter: { last: (l) => l === 'last', graceMs: 2000 } });
    expect(exits).toMatchObject({ exitCode: 0, timedOut: false });
    expect(exits.lingered).toBeUndefined();
    // Without the last line, the child runs to its bound as before.
    const silent = await runChild({ command: node('setInterval(() => {}, 1000)'), input: [], timeoutMs: 400, exitAfter: { last: (l) => l === 'last', graceMs: 50 } });
    expect(silent).toMatchObject({ timedOut: true });
    expect(silent.lingered).toBeUndefined();
  });

  test('a shell wrapper and its children are stopped together', async () => {
    // Stopped once the grandchild said its pid: a 500 ms bound missed a node start under CI's load (2026-11-29).
    const obs = await runChild({ command: `${node("console.log(process.pid); setInterval(() => {}, 1000)")}; echo after`, input: [], timeoutMs: 20_000, stopWhen: () => true });
    const pid = Number(obs.lines[0]?.text);
    expect(Number.isInteger(pid)).toBe(true);
    // SIGKILL is delivered asynchronously, and an orphan is reaped by whoever is PID 1 here: a zombie
    // ('Z') or a vanished /proc entry both mean it no longer runs.
    await new Promise((r) => setTimeout(r, 100));
    let state = 'gone';
    try { state = /State:\s+(\S)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 'gone'; } catch { /* gone */ }
    expect(['gone', 'Z', 'X']).toContain(state);
  });
});

// Linux (/proc): a client's overrun finding says which (harness/targets/client/runner.ts `working`).
describe.runIf(process.platform === 'linux')('runChild: at the bound, how long the process ran or was ready to run', () => {
  test('tells a process still working from one waiting on its input', async () => {
    const run = (command: string) => runChild({ command, input: [{ text: 'x' }], holdStdinMs: 60_000, timeoutMs: 1000, killGraceMs: 200 });
    const [waiting, working] = await Promise.all([run('read line; sleep 30'), run('read line; while :; do :; done')]);
    for (const obs of [waiting, working]) expect(obs.timedOut).toBe(true);
    expect(waiting.workAtBound!.overMs).toBeGreaterThanOrEqual(1000);
    expect(waiting.workAtBound!.workMs).toBeLessThan(waiting.workAtBound!.overMs / 2);
    expect(working.workAtBound!.workMs).toBeGreaterThanOrEqual(working.workAtBound!.overMs / 2);
  });
});

describe('runChild feeds lines in order when the event loop runs late', () => {
  test('writes every line after the one before it, even when timers of different lengths expire together', async () => {
    const input = Array.from({ length: 15 }, (_, i) => ({ text: `line ${i}`, delayMs: 1 }));
    // Twenty runs started a millisecond apart share the timer lists; then the loop is blocked, so
    // that many of their timers are due at once (a loaded machine).
    const runs: Array<ReturnType<typeof runChild>> = [];
    for (let k = 0; k < 20; k++) {
      runs.push(runChild({ command: 'cat', input, timeoutMs: 20_000 }));
      const t = Date.now();
      while (Date.now() - t < 1) { /* a millisecond apart */ }
      if (k === 10) { const b = Date.now(); while (Date.now() - b < 40) { /* busy */ } }
    }
    for (const obs of await Promise.all(runs)) expect(obs.lines.map((l) => l.text)).toEqual(input.map((l) => l.text));
  }, 30_000);
});

describe('runChild: when EOF reached the pipe', () => {
  test('is when the end of stdin was made, a loop turn after the close was asked for: a harness blocked there sends EOF late, and stdinEofAt says so', async () => {
    // No hold: the last line and the close are asked for at once, inside runChild; the shutdown waits for the loop.
    const t0 = performance.now();
    const running = runChild({ command: 'cat', input: [{ text: 'a' }], timeoutMs: 20_000 });
    // Ordered, not timed: the close was asked for before the block began (a loaded machine only moves both).
    const blockFrom = performance.now() - t0;
    const b = Date.now();
    while (Date.now() - b < 300) { /* the harness descheduled right after the close */ }
    const obs = await running;
    expect(obs.lines.map((l) => l.text)).toEqual(['a']);
    expect(obs.stdinClosedAt).toBeLessThanOrEqual(Math.ceil(blockFrom) + 1);
    expect((obs.stdinEofAt ?? 0) - (obs.stdinClosedAt ?? 0)).toBeGreaterThanOrEqual(250);
  }, 30_000);
});

describe('runChild: the loop while the input is on its way', () => {
  test('a line larger than the pipe waits in the harness: a loop blocked meanwhile is in feedLoopStallMs', async () => {
    const running = runChild({ command: 'cat > /dev/null', input: [{ text: 'x'.repeat(8 * 1024 * 1024) }], timeoutMs: 20_000 });
    const b = Date.now();
    while (Date.now() - b < 300) { /* the harness busy while most of the line still waits for the pipe */ }
    const obs = await running;
    expect(obs.exitCode).toBe(0);
    expect(obs.feedLoopStallMs).toBeGreaterThanOrEqual(250);
  }, 30_000);

  test('a stall during a scripted pause, with nothing waiting for the pipe, is not a stall of the feed', async () => {
    const running = runChild({ command: 'cat > /dev/null', input: [{ text: 'a' }, { text: 'b', delayMs: 400 }], timeoutMs: 20_000 });
    const b = Date.now();
    while (Date.now() - b < 300) { /* the harness busy while the script pauses anyway */ }
    const obs = await running;
    expect(obs.exitCode).toBe(0);
    expect(obs.feedLoopStallMs).toBeLessThan(250);
  }, 30_000);

  test('feedWatch stops once every line reached the pipe, and says so once', () => {
    const seen: number[] = [];
    const fed = feedWatch(2, (ms) => seen.push(ms));
    const calls: Array<() => void> = [];
    fed.write((flushed) => { calls.push(flushed); return true; });
    fed.write((flushed) => { calls.push(flushed); return false; });
    calls[0]?.();
    expect(seen).toEqual([]);
    calls[1]?.();
    fed.stop();
    expect(seen).toHaveLength(1);
  });
});

describe('feedInOrder', () => {
  test('waits for an answer through awaitAnswer (a fair bound), and holds a stream open through later (scripted time)', async () => {
    const { feedInOrder } = await import('./child.ts');
    const calls: string[] = [];
    const feeder = (answered: boolean) => ({
      later: (ms: number, fn: () => void) => { calls.push(`later ${ms}`); fn(); },
      awaitAnswer: (ms: number, fn: () => void) => { calls.push(`await ${ms}`); fn(); },
      write: () => { calls.push('write'); },
      end: () => { calls.push('end'); },
      hasOutput: () => answered,
      onFirstOutput: () => { calls.push('on-output'); },
      hasAnyLine: () => answered,
      onAnyLine: () => {},
    });
    feedInOrder({ command: 'x', input: [{ text: 'a' }], holdStdinUntilOutputMs: 1000, timeoutMs: 1 }, feeder(false));
    expect(calls).toEqual(['write', 'on-output', 'await 1000', 'end']);
    calls.length = 0;
    feedInOrder({ command: 'x', input: [{ text: 'a' }], holdStdinMs: 300, timeoutMs: 1 }, feeder(false));
    expect(calls).toEqual(['write', 'later 300', 'end']);
  });

  test('a process that has written nothing yet gets the wait from its first line, at most holdStdinSilentMs before it', async () => {
    const { feedInOrder } = await import('./child.ts');
    const calls: string[] = [];
    const pending: Array<{ what: string; fn: () => void }> = [];
    let firstLine: (() => void) | undefined;
    const feeder = {
      later: (ms: number, fn: () => void) => { pending.push({ what: `later ${ms}`, fn }); },
      awaitAnswer: (ms: number, fn: () => void) => { calls.push(`await ${ms}`); pending.push({ what: `await ${ms}`, fn }); },
      write: () => { calls.push('write'); },
      end: () => { calls.push('end'); },
      hasOutput: () => false,
      onFirstOutput: () => {},
      hasAnyLine: () => false,
      onAnyLine: (fn: () => void) => { firstLine = fn; },
    };
    const script = { command: 'x', input: [{ text: 'a' }], holdStdinUntilOutputMs: 1000, holdStdinSilentMs: 3000, timeoutMs: 1 };
    feedInOrder(script, feeder);
    expect(calls).toEqual(['write', 'await 3000']);
    firstLine?.(); // its first line: the usual wait starts now
    firstLine?.(); // once only
    expect(calls).toEqual(['write', 'await 3000', 'await 1000']);
    pending[0]!.fn(); // the silent cap runs out after the first line: nothing
    expect(calls).toEqual(['write', 'await 3000', 'await 1000']);
    pending[1]!.fn();
    expect(calls.at(-1)).toBe('end');
    // Silent throughout: the cap closes the input.
    calls.length = 0; pending.length = 0;
    feedInOrder(script, feeder);
    pending[0]!.fn();
    expect(calls).toEqual(['write', 'await 3000', 'end']);
  });
});

describe('runChild waits for an answer while the process works', () => {
  test('a process that reads [DONE], then computes past the hold before answering, answers before its input is closed', async () => {
    // Busy for 600 ms (a Python start behind a loaded runner, or a slow first answer) against a 200 ms hold.
    const code = "let b='';process.stdin.on('data',(c)=>{b+=c;if(b.includes('[DONE]')){process.stdout.write('first\\n');const t=Date.now();while(Date.now()-t<600){}process.stdout.write('last\\n');}});process.stdin.on('end',()=>{process.stdout.write('eof\\n');});";
    const obs = await runChild({ command: node(code), input: [{ text: '[DONE]' }], holdStdinUntilOutputMs: 200, holdStdinUntil: (l) => l === 'last', timeoutMs: 10_000 });
    expect(obs.lines.map((l) => l.text)).toEqual(['first', 'last', 'eof']);
    expect(obs.linesBeforeStdinClosed).toBe(2);
  });

  test('a process that waits for EOF after [DONE] gets its input closed at the hold', async () => {
    const code = "process.stdin.resume();process.stdin.on('end',()=>{process.stdout.write('last\\n');});";
    const obs = await runChild({ command: node(code), input: [{ text: '[DONE]' }], holdStdinUntilOutputMs: 200, holdStdinUntil: (l) => l === 'last', timeoutMs: 10_000 });
    expect(obs.lines.map((l) => l.text)).toEqual(['last']);
    expect(obs.linesBeforeStdinClosed).toBe(0);
    expect(obs.stdinClosedAt).toBeLessThan(5000);
  });
});
