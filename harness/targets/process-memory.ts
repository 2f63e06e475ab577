/** The resident memory of a process group, as the memory probes read it from outside (GW-MEM-002, ABE-MEM-001). */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Resident set size of every process in a process group: /proc on Linux, `ps` elsewhere (macOS). */
export function groupRss(pgid: number): number | { error: string } {
  let entries: string[];
  try { entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e)); } catch { return psGroupRss(pgid); }
  if (entries.length === 0) return psGroupRss(pgid);
  let total = 0;
  let members = 0;
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'));
      if (rss) { total += Number(rss[1]) * 1024; members++; }
    } catch { /* the process ended while we looked */ }
  }
  return members > 0 ? total : { error: `no process of group ${pgid} is left to measure` };
}

function psGroupRss(pgid: number): number | { error: string } {
  let out: string;
  try { out = execFileSync('ps', ['-A', '-o', 'pgid=,rss='], { encoding: 'utf8', timeout: 5000 }); } catch (error) {
    return { error: `the memory cannot be read: no /proc, and ps failed (${(error as Error).message})` };
  }
  let total = 0;
  let members = 0;
  for (const line of out.split('\n')) {
    const [group, rss] = line.trim().split(/\s+/).map(Number);
    if (group === pgid && Number.isFinite(rss)) { total += (rss ?? 0) * 1024; members++; }
  }
  return members > 0 ? total : { error: `no process of group ${pgid} is left to measure` };
}

