import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { busyStepMs, fairIdleTimeout, fairTimeout, ledgerMs, waitForStartup, watchProcess, withLedger, type Ledger } from './fair-timer.ts';
import { ownRunDelayMs, treeBusy, treeRunDelaysMs, workProbe } from './run-delay.ts';

/** A hand-run clock: timers fire when the test advances it. */
function fakeClock() {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
  return {
    setTimer: (fn: () => void, ms: number) => { const t = { at: now + ms, fn, live: true }; timers.push(t); return t; },
    clearTimer: (h: unknown) => { (h as { live: boolean }).live = false; },
    defer: (fn: () => void) => fn(),
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const next = timers.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        next.live = false;
        now = next.at;
        next.fn();
      }
      now = until;
    },
    now: () => now,
  };
}

describe('fairTimeout', () => {
  it('expires at its bound when the machine withheld nothing', () => {
    const c = fakeClock();
    let at: number | undefined;
    const t = fairTimeout(1000, () => { at = c.now(); }, { ...c, withheld: () => 0 });
    c.advance(999);
    expect(at).toBeUndefined();
    c.advance(1);
    expect(at).toBe(1000);
    expect(t.extendedMs()).toBe(0);
  });

  it('gives back what was withheld, round after round, and says how much', () => {
    const c = fakeClock();
    let withheld = 0;
    let at: number | undefined;
    const t = fairTimeout(1000, () => { at = c.now(); }, { ...c, withheld: () => withheld });
    withheld = 400;
    c.advance(1000);
    expect(at).toBeUndefined();
    withheld = 600; // 200 more withheld during the first extension
    c.advance(400);
    expect(at).toBeUndefined();
    c.advance(200);
    expect(at).toBe(1600);
    expect(t.extendedMs()).toBe(600);
  });

  it('moves the bound by at most maxExtendMs (a busy loop is still judged)', () => {
    const c = fakeClock();
    let at: number | undefined;
    const t = fairTimeout(1000, () => { at = c.now(); }, { ...c, withheld: () => c.now() * 10, maxExtendMs: 2000 });
    c.advance(10_000);
    expect(at).toBe(3000);
    expect(t.extendedMs()).toBe(2000);
  });

  it('ignores under 10 ms withheld (timer noise) and never fires once cancelled', () => {
    const c = fakeClock();
    const fired: string[] = [];
    fairTimeout(100, () => fired.push('a'), { ...c, withheld: () => 9 });
    const b = fairTimeout(100, () => fired.push('b'), { ...c, withheld: () => 0 });
    b.cancel();
    c.advance(1000);
    expect(fired).toEqual(['a']);
  });

  it('decides after the I/O already waiting: the decision is deferred, and a cancel meanwhile wins', () => {
    const c = fakeClock();
    const deferred: Array<() => void> = [];
    let fired = false;
    const t = fairTimeout(100, () => { fired = true; }, { ...c, withheld: () => 0, defer: (fn) => deferred.push(fn) });
    c.advance(100);
    expect(fired).toBe(false);
    t.cancel(); // the end record read in the poll phase
    deferred.forEach((fn) => fn());
    expect(fired).toBe(false);
  });

  it('a wait for an answer (whileBusyMs) waits on while the implementation works, at most whileBusyMs; a plain bound does not', () => {
    const c = fakeClock();
    let working = true;
    let at: number | undefined;
    const t = fairTimeout(1000, () => { at = c.now(); }, { ...c, withheld: () => 0, whileBusyMs: 5000, busy: () => working });
    c.advance(1400);
    expect(at).toBeUndefined();
    working = false; // it went back to waiting on its input: two looks in a row end the wait
    c.advance(busyStepMs);
    expect(at).toBeUndefined();
    c.advance(busyStepMs);
    expect(at).toBe(1400 + 2 * busyStepMs);
    expect(t.extendedMs()).toBe(400 + 2 * busyStepMs);
    let capped: number | undefined;
    fairTimeout(1000, () => { capped = c.now() - 1500; }, { ...c, withheld: () => 0, whileBusyMs: 500, busy: () => true });
    c.advance(10_000);
    expect(capped).toBe(1500);
    let plain: number | undefined;
    fairTimeout(1000, () => { plain = c.now() - 11_500; }, { ...c, withheld: () => 0, busy: () => true });
    c.advance(10_000);
    expect(plain).toBe(1000);
  });
});

const linux = process.platform === 'linux' && ownRunDelayMs() !== undefined;

describe('fairIdleTimeout', () => {
  it('restarts its window at each touch (a touch sets no timer) and expires a window after the last', () => {
    const c = fakeClock();
    let at: number | undefined;
    const t = fairIdleTimeout(1000, () => { at = c.now(); }, { ...c, withheld: () => 0 });
    c.advance(600);
    t.touch();
    c.advance(900);
    t.touch();
    c.advance(999);
    expect(at).toBeUndefined();
    c.advance(1);
    expect(at).toBe(2500);
    expect(t.extendedMs()).toBe(0);
  });

  it('gives back what was withheld in a window, counted once', () => {
    const c = fakeClock();
    let at: number | undefined;
    let withheld = 0;
    const t = fairIdleTimeout(1000, () => { at = c.now(); }, { ...c, withheld: () => withheld });
    withheld = 400;
    c.advance(1399);
    expect(at).toBeUndefined();
    c.advance(1);
    expect(at).toBe(1400);
    expect(t.extendedMs()).toBe(400);
  });

  it('never fires once cancelled', () => {
    const c = fakeClock();
    let fired = false;
    const t = fairIdleTimeout(1000, () => { fired = true; }, { ...c, withheld: () => 0 });
    c.advance(500);
    t.touch();
    c.advance(999);
    t.cancel();
    c.advance(10_000);
    expect(fired).toBe(false);
  });
});

describe.runIf(linux)('run delay on Linux', () => {
  it('tells a tree that works from one that waits on its input', async () => {
    const waits = spawn('sh', ['-c', 'cat'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const works = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(treeBusy(waits.pid as number)).toBe(false);
      // A busy loop is running or ready to run at any instant; a few looks allow for a sample between states.
      expect([0, 1, 2, 3, 4].some(() => treeBusy(works.pid as number))).toBe(true);
    } finally { waits.kill('SIGKILL'); works.kill('SIGKILL'); }
    expect(treeBusy(2 ** 22 + 1)).toBe(false);
  });

  it('a work probe says a busy process works look after look (its CPU time grows), and a waiting one does not', async () => {
    const waits = spawn('sh', ['-c', 'cat'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const works = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const idle = workProbe(() => waits.pid);
      const busy = workProbe(() => works.pid);
      await new Promise((r) => setTimeout(r, 100));
      expect([idle(), idle()]).toEqual([false, false]);
      expect(busy()).toBe(true);
    } finally { waits.kill('SIGKILL'); works.kill('SIGKILL'); }
  });

  it('walks a process tree to its grandchildren', async () => {
    const sh = spawn('sh', ['-c', 'sleep 5 & sleep 5 & wait'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const tree = treeRunDelaysMs(sh.pid as number);
      expect(tree.size).toBe(3);
      expect([...tree.values()].every((d) => d >= 0)).toBe(true);
    } finally { sh.kill('SIGKILL'); }
    expect(treeRunDelaysMs(2 ** 22 + 1).size).toBe(0); // no such process: nothing, no throw
  });

  it('a watched process adds what it was withheld to the ledger of the work that started it, and keeps it once it exited', async () => {
    const busy = (ms: number) => spawn(process.execPath, ['-e', `const t=Date.now();while(Date.now()-t<${ms}){}`], { stdio: 'ignore' });
    const hogs = Array.from({ length: availableParallelism() + 1 }, () => busy(1500));
    const child = busy(1000);
    let alive = true;
    child.on('exit', () => { alive = false; });
    const ledger: Ledger = { movedMs: 0 };
    try {
      withLedger(ledger, () => watchProcess(() => (alive ? child.pid : undefined)));
      watchProcess(() => child.pid); // outside any ledger: nothing recorded, no throw
      await new Promise((r) => setTimeout(r, 700));
      expect(ledgerMs(ledger)).toBeGreaterThan(50);
      if (alive) await new Promise((r) => child.on('exit', r));
      expect(ledgerMs(ledger)).toBeGreaterThan(50);
    } finally { for (const p of [...hogs, child]) p.kill('SIGKILL'); }
  });

  it('counts the time a busy child waited for a CPU behind more busy processes than cores (same session)', async () => {
    const busy = (ms: number) => spawn(process.execPath, ['-e', `const t=Date.now();while(Date.now()-t<${ms}){}`], { stdio: 'ignore' });
    const hogs = Array.from({ length: availableParallelism() + 1 }, () => busy(2000));
    const child = busy(2000);
    try {
      const before = treeRunDelaysMs(child.pid as number).get(child.pid as number) ?? 0;
      await new Promise((r) => setTimeout(r, 700));
      const after = treeRunDelaysMs(child.pid as number).get(child.pid as number) ?? 0;
      // cores + 2 busy processes on `cores` CPUs: each waits about 2/(cores + 2) of the time, 230 ms of 700 on two cores.
      expect(after - before).toBeGreaterThan(50);
    } finally { for (const p of [...hogs, child]) p.kill('SIGKILL'); }
  });
});

describe('a ledger', () => {
  it('adds what every bound started inside the work moved, and nothing from outside it', async () => {
    const { withLedger } = await import('./fair-timer.ts');
    const c = fakeClock();
    const ledger = { movedMs: 0 };
    fairTimeout(100, () => {}, { ...c, withheld: () => 1000 }); // outside: not counted
    await withLedger(ledger, async () => {
      await Promise.resolve();
      fairTimeout(100, () => {}, { ...c, withheld: () => 50 });
      fairTimeout(100, () => {}, { ...c, withheld: () => 30 });
    });
    c.advance(1000);
    expect(ledger.movedMs).toBe(80);
  });

  it('moves by the time spent waiting on start-ups, counted once while several start at once (waitForStartup)', async () => {
    const ready = (ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve('ready'), ms));
    expect(await waitForStartup(ready(10))).toBe('ready'); // outside a ledger: only waited on
    const ledger: Ledger = { movedMs: 0 };
    const t0 = performance.now();
    await withLedger(ledger, async () => { await Promise.all([waitForStartup(ready(200)), waitForStartup(ready(200)), waitForStartup(ready(100))]); });
    const elapsed = performance.now() - t0;
    // Three at once: the time they were waited on together, never more than the wall time (their sum is at least 500 ms).
    expect(ledger.movedMs).toBeGreaterThanOrEqual(195);
    expect(ledger.movedMs).toBeLessThanOrEqual(elapsed);
  });
});

describe('fairDeadline', () => {
  it('moves by what was withheld, at most maxExtendMs, and tells the ledgers it records to, earlier moves included', async () => {
    const { fairDeadline } = await import('./fair-timer.ts');
    let withheld = 0;
    const d = fairDeadline(1000, () => undefined, { withheld: () => withheld, maxExtendMs: 500 });
    const start = d.at() - 1000;
    withheld = 300;
    await new Promise((resolve) => setTimeout(resolve, 120)); // the reading is reused for 100 ms
    expect(d.at() - start).toBe(1300);
    const ledger = { movedMs: 0 };
    d.record(ledger);
    d.record(ledger); // once only
    expect(ledger.movedMs).toBe(300);
    withheld = 900;
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(d.at() - start).toBe(1500);
    expect(d.movedMs()).toBe(500);
    expect(ledger.movedMs).toBe(500);
  });
});

describe.runIf(linux)('treeWorks', () => {
  it('tells a process that works from one that waits', async () => {
    const { treeWorks } = await import('./run-delay.ts');
    const waits = spawn('sh', ['-c', 'sleep 5'], { stdio: 'ignore' });
    const works = spawn(process.execPath, ['-e', 'const t=Date.now();while(Date.now()-t<5000){}'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(await treeWorks(waits.pid as number)).toBe(false);
      expect(await treeWorks(works.pid as number)).toBe(true);
      expect(await treeWorks(2 ** 22 + 1)).toBe(false);
    } finally { waits.kill('SIGKILL'); works.kill('SIGKILL'); }
  });

  it('counts every thread: a main thread that waits for a busy thread of its own (tsx loads modules on a hooks thread) works', async () => {
    const { treeWorks, treeRunDelaysMs } = await import('./run-delay.ts');
    // It says when its worker runs: a fixed wait was too short for a Node start behind a loaded CI runner.
    const code = "const {Worker}=require('node:worker_threads');const w=new Worker('require(\\'node:worker_threads\\').parentPort.postMessage(1);const t=Date.now();while(Date.now()-t<20000){}',{eval:true});w.once('message',()=>{process.stdout.write('busy\\n',()=>Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,20000))})";
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise<void>((resolve) => { child.stdout?.once('data', () => resolve()); child.once('exit', () => resolve()); });
      expect(treeRunDelaysMs(child.pid as number).size).toBeGreaterThan(1);
      expect(await treeWorks(child.pid as number)).toBe(true);
    } finally { child.kill('SIGKILL'); }
  });
});
