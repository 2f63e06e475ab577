/**
 * What the implementations' priority (harness/child-priority.ts) does for the harness's clock, on
 * this machine: four "harness" processes, each doing 5 ms of work on a 10 ms timer (half a core), in
 * this session, beside three busy processes spawned detached (each a session, as an implementation
 * is), first at nice 0 and then at each value given. For each: how late the timers came (mean and
 * worst, ms) and how long the harness processes waited for a CPU (run delay, ms per 4 s).
 *
 *   npx tsx bench/harness-priority.ts [NICE ...]     (default: 0 5 10)
 *
 * It loads every core for 4 s per value: run it alone. Linux only (/proc).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const runForMs = 4000;
const ownDelayMs = (): number => Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[1]) / 1e6;

/** One harness process: timer lateness and run delay over runForMs, printed as JSON. */
function worker(): void {
  const work = () => { const t = performance.now(); while (performance.now() - t < 5) { /* half a core */ } };
  let worst = 0, sum = 0, n = 0, last = performance.now();
  const delay0 = ownDelayMs();
  const t = setInterval(() => { const now = performance.now(); const late = now - last - 10; last = now; worst = Math.max(worst, late); sum += late; n++; work(); }, 10);
  setTimeout(() => {
    clearInterval(t);
    process.stdout.write(JSON.stringify({ meanLateMs: sum / n, worstLateMs: worst, runDelayMs: ownDelayMs() - delay0 }) + '\n');
    process.exit(0);
  }, runForMs);
}

async function trial(nice: number): Promise<{ nice: number; meanLateMs: number; worstLateMs: number; runDelayMs: number }> {
  const busy = Array.from({ length: 3 }, () => {
    const c = spawn(process.execPath, ['-e', 'for(;;){}'], { detached: true, stdio: 'ignore' });
    if (nice > 0) try { writeFileSync(`/proc/${c.pid}/autogroup`, String(nice)); } catch { /* no autogroups */ }
    return c;
  });
  const self = fileURLToPath(import.meta.url);
  const outs = await Promise.all(Array.from({ length: 4 }, () => new Promise<string>((resolve) => {
    const w = spawn(process.execPath, ['--import', 'tsx', self, '--worker'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    w.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    w.on('close', () => resolve(out));
  })));
  for (const c of busy) try { process.kill(c.pid as number, 'SIGKILL'); } catch { /* gone */ }
  const rows = outs.map((o) => JSON.parse(o) as { meanLateMs: number; worstLateMs: number; runDelayMs: number });
  const mean = (f: (r: (typeof rows)[number]) => number) => rows.reduce((a, r) => a + f(r), 0) / rows.length;
  return { nice, meanLateMs: mean((r) => r.meanLateMs), worstLateMs: Math.max(...rows.map((r) => r.worstLateMs)), runDelayMs: mean((r) => r.runDelayMs) };
}

if (process.argv.includes('--worker')) worker();
else {
  const values = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n));
  for (const nice of values.length > 0 ? values : [0, 5, 10]) {
    const r = await trial(nice);
    console.log(`implementations at nice ${String(r.nice).padStart(2)}: harness timers late ${r.meanLateMs.toFixed(1)} ms on average (worst ${r.worstLateMs.toFixed(0)} ms); each harness process waited ${r.runDelayMs.toFixed(0)} ms of ${runForMs} for a CPU`);
  }
}
