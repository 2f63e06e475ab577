/**
 * Preloaded into a server under a memory benchmark (`node --expose-gc --import tsx --import
 * bench/children/gc-probe.ts ...`): on SIGUSR2 it runs a full GC and writes process.memoryUsage()
 * as JSON to $BENCH_GC_PROBE_FILE, so retained memory can be told apart from heap sizing.
 */
import { writeFileSync } from 'node:fs';

const file = process.env['BENCH_GC_PROBE_FILE'];
const gc = (globalThis as { gc?: () => void }).gc;
if (!file || !gc) throw new Error('gc-probe: run with --expose-gc and set BENCH_GC_PROBE_FILE to the file the figures go to');
process.on('SIGUSR2', () => {
  gc();
  gc();
  writeFileSync(file, JSON.stringify({ at: Date.now(), ...process.memoryUsage() }));
});
