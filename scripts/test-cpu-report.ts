/**
 * Reads what scripts/test-cpu-record.ts wrote (ADK_CONFORMANCE_TEST_CPU=FILE npx vitest run) and
 * prints the files by CPU, with the suite's total: `npx tsx scripts/test-cpu-report.ts FILE [N]`.
 * With `--weights` it prints instead, as JSON, each file's wall seconds for the files over 5 s: what
 * scripts/test-weights.json holds for scripts/test-sequencer.ts.
 */
import { readFileSync } from 'node:fs';

const [file, topText] = process.argv.slice(2);
if (!file) { process.stderr.write('usage: npx tsx scripts/test-cpu-report.ts FILE [N | --weights]\n'); process.exit(2); }
type Row = { file: string; wallS: number; selfS: number; childrenS: number };
const rows = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
if (topText === '--weights') {
  const heavy = rows.filter((r) => r.wallS > 5).sort((a, b) => b.wallS - a.wallS);
  process.stdout.write(`${JSON.stringify(Object.fromEntries(heavy.map((r) => [r.file, Math.round(r.wallS)])), null, 2)}\n`);
  process.exit(0);
}
const total = (r: Row) => r.selfS + r.childrenS;
const sum = rows.reduce((s, r) => s + total(r), 0);
process.stdout.write(`${rows.length} files, ${sum.toFixed(0)} s of CPU (worker + waited children), ${rows.reduce((s, r) => s + r.wallS, 0).toFixed(0)} s of file wall time\n`);
for (const r of [...rows].sort((a, b) => total(b) - total(a)).slice(0, Number(topText ?? 25))) {
  process.stdout.write(`${total(r).toFixed(1).padStart(7)} s CPU (${r.selfS.toFixed(1)} worker + ${r.childrenS.toFixed(1)} children) ${r.wallS.toFixed(1).padStart(6)} s wall  ${r.file}\n`);
}
