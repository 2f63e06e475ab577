/** The terminal table and its Markdown twin: one row per figure, value next to baseline and ratio. */
import type { BenchResult, Figure } from './figures.ts';

export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  const text = abs >= 1000 ? Math.round(value).toLocaleString('en') : abs >= 100 ? value.toFixed(0) : abs >= 10 ? value.toFixed(1) : abs >= 1 ? value.toFixed(2) : value.toFixed(3);
  return `${text} ${unit}`;
}

type Row = [string, string, string, string, string, string];

function rowOf(result: BenchResult, f: Figure): Row {
  const baseline = f.baseline ? `${formatValue(f.baseline.value, f.unit)} (${f.baseline.name})` : '';
  const ratio = f.ratio === null ? '' : `${f.ratio.toFixed(f.ratio >= 10 ? 1 : 3)}x`;
  const goal = f.goal ? `${f.goal.met ? 'met' : 'MISSED'}: ${f.goal.text}` : '';
  return [result.id, f.name, formatValue(f.value, f.unit), baseline, ratio, goal];
}

const header: Row = ['bench', 'figure', 'value', 'baseline (same run)', 'ratio', 'goal'];

export function rowsOf(results: readonly BenchResult[]): Row[] {
  const rows: Row[] = [];
  for (const r of results) {
    if (r.skipped !== undefined) rows.push([r.id, `did not run: ${r.skipped}`, '', '', '', '']);
    for (const f of r.figures) rows.push(rowOf(r, f));
  }
  return rows;
}

/** Fixed-width columns; the figure column wraps at `width` characters. */
export function terminalTable(results: readonly BenchResult[], width = 70): string {
  const rows = rowsOf(results).flatMap((row): Row[] => {
    const parts = wrap(row[1], width);
    return parts.map((part, i) => (i === 0 ? [row[0], part, row[2], row[3], row[4], row[5]] : ['', part, '', '', '', '']));
  });
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c]?.length ?? 0)));
  const line = (r: Row) => r.map((cell, c) => (c === 2 || c === 4 ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function markdownTable(results: readonly BenchResult[]): string {
  const esc = (cell: string) => cell.replaceAll('|', '\\|');
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rowsOf(results).map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) { out.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out.length > 0 ? out : [''];
}
