/**
 * The CPU of a process and every process under it, read from /proc while it runs (every `everyMs`):
 * what `/usr/bin/time` cannot give for `npm start`, whose gateway instances are detached and never
 * waited for. A process's CPU is the largest reading seen, so its last interval before it exits may
 * be missed: the figures are a floor of what each process used.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { procStat } from './children.ts';

export type TreeProcess = { pid: number; command: string; cpuS: number };

function readProcs(): Map<number, { ppid: number; cpuS: number }> {
  const procs = new Map<number, { ppid: number; cpuS: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try { procs.set(Number(name), procStat(Number(name))); } catch { /* gone between the listing and the read */ }
  }
  return procs;
}

/** Start sampling `rootPid`'s tree; `stop()` takes a last reading and gives every process seen, most CPU first. */
export function sampleProcessTree(rootPid: number, everyMs = 200): { stop: () => TreeProcess[] } {
  const seen = new Map<number, TreeProcess>();
  const sample = () => {
    const procs = readProcs();
    const tree = new Set([rootPid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const [pid, p] of procs) if (!tree.has(pid) && tree.has(p.ppid)) { tree.add(pid); grew = true; }
    }
    for (const pid of tree) {
      const p = procs.get(pid);
      if (!p) continue;
      const known = seen.get(pid);
      if (known) { known.cpuS = Math.max(known.cpuS, p.cpuS); continue; }
      let command = '';
      try { command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim(); } catch { /* gone */ }
      seen.set(pid, { pid, command, cpuS: p.cpuS });
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return [...seen.values()].sort((a, b) => b.cpuS - a.cpuS);
    },
  };
}
