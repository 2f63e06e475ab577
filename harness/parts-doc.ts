/**
 * `npm run gen:parts`: writes the parts table (harness/parts.ts) into docs/harness.md, between the
 * table's first row and the first line after it that is not a table row (test/parts-table.test.ts
 * holds the doc to it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../core/package-root.ts';
import { partsMarkdown } from './parts.ts';

const path = join(packageRoot, 'docs', 'harness.md');
const lines = readFileSync(path, 'utf8').split('\n');
const start = lines.findIndex((l) => l.startsWith('| part (profile name) |'));
if (start < 0) throw new Error(`${path} has no parts table (a line starting "| part (profile name) |"); add one where it belongs and run npm run gen:parts again`);
let end = start;
while (end < lines.length && (lines[end] ?? '').startsWith('|')) end++;
writeFileSync(path, [...lines.slice(0, start), ...partsMarkdown().trimEnd().split('\n'), ...lines.slice(end)].join('\n'));
process.stdout.write(`wrote the parts table into ${path}\n`);
