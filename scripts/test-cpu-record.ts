/**
 * vitest setupFile: with ADK_CONFORMANCE_TEST_CPU=FILE set, each test file appends one JSON line to
 * FILE: when it started (epoch ms, so files can be laid on one timeline), its wall time and the CPU its worker process and the children it waited for used while it
 * ran (/proc/self/stat utime + stime, cutime + cstime). The suite is CPU-bound on 2 cores (issue 30
 * §3, docs/performance.md), so where its CPU goes is the figure that says which file to work on;
 * `npx tsx scripts/test-cpu-report.ts FILE` lists them. Detached processes (the kit's gateway
 * instances) are not counted. Without the variable it does nothing.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';

const out = process.env.ADK_CONFORMANCE_TEST_CPU;
const ticksPerSecond = 100;

/** Seconds of CPU: this process, and its children that were waited for. */
function cpu(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return { self: ((f[11] ?? 0) + (f[12] ?? 0)) / ticksPerSecond, children: ((f[13] ?? 0) + (f[14] ?? 0)) / ticksPerSecond };
}

if (out) {
  // From before the test file is imported: its imports and collection are its cost too.
  const start = cpu();
  const startedAt = performance.now();
  afterAll(() => {
    const end = cpu();
    const file = relative(process.cwd(), expect.getState().testPath ?? 'unknown');
    appendFileSync(out, `${JSON.stringify({ file, startedAtMs: Math.round(performance.timeOrigin + startedAt), wallS: Math.round(performance.now() - startedAt) / 1000, selfS: +(end.self - start.self).toFixed(2), childrenS: +(end.children - start.children).toFixed(2) })}\n`);
  });
}
