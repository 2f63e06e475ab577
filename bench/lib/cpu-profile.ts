/**
 * Reads a V8 `.cpuprofile` (what `node --cpu-prof` writes) into the functions that took the most
 * self time and the most total time, so a fix names the hot path it removes.
 */
import { readFileSync } from 'node:fs';
import { repoRoot } from './children.ts';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

export type HotFunction = { name: string; where: string; selfMs: number; selfShare: number; totalMs: number; totalShare: number };

export function summarizeCpuProfile(file: string, top = 15): { totalMs: number; bySelf: HotFunction[]; byTotal: HotFunction[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  if (!Array.isArray(profile.nodes) || !Array.isArray(profile.samples)) throw new Error(`${file} is not a V8 .cpuprofile (no nodes/samples); pass the file node --cpu-prof wrote`);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  // Line and column: tsx's output keeps each module on few lines, so the column tells functions apart.
  const key = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}\u0000${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    self.set(key(node), (self.get(key(node)) ?? 0) + us);
    // Total time: once per distinct function on the stack (recursion counted once).
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = key(byId.get(at) as ProfileNode);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  }
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0) || 1;
  const row = (k: string): HotFunction => {
    const [name = '', where = ''] = k.split('\u0000');
    const s = self.get(k) ?? 0;
    const t = total.get(k) ?? 0;
    return { name, where, selfMs: round(s / 1000), selfShare: round(s / totalUs), totalMs: round(t / 1000), totalShare: round(t / totalUs) };
  };
  const skip = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);
  const keys = [...total.keys()].filter((k) => !skip.has(k.split('\u0000')[0] ?? ''));
  return {
    totalMs: round(totalUs / 1000),
    bySelf: [...self.keys()].sort((a, b) => (self.get(b) ?? 0) - (self.get(a) ?? 0)).slice(0, top).map(row),
    byTotal: keys.sort((a, b) => (total.get(b) ?? 0) - (total.get(a) ?? 0)).slice(0, top).map(row),
  };
}

function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  return path.startsWith(repoRoot + '/') ? path.slice(repoRoot.length + 1) : path;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
