import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCodes } from '../core/error-codes-all.ts';

const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'error-codes.md'), 'utf8');

/** Codes documented in docs/error-codes.md: the backticked first cell of each table row. */
function documentedCodes(text: string): Map<string, { part: string; status: string }> {
  const codes = new Map<string, { part: string; status: string }>();
  let part = '';
  for (const line of text.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading?.[1]) { part = heading[1].trim(); continue; }
    const row = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*([^|]*)\|/.exec(line);
    if (row?.[1]) codes.set(row[1], { part, status: (row[2] ?? '').trim() });
  }
  return codes;
}

describe('docs/error-codes.md', () => {
  const documented = documentedCodes(doc);

  it('documents every code of the merged registry', () => {
    const missing = Object.keys(errorCodes).filter((code) => !documented.has(code));
    expect(missing, `add a row for each of these to docs/error-codes.md`).toEqual([]);
  });

  it('documents no code the registry lacks', () => {
    const stale = [...documented.keys()].filter((code) => !(code in errorCodes));
    expect(stale, 'remove these rows from docs/error-codes.md or add the codes to their part table').toEqual([]);
  });

  it('lists each code under its own part with the status the registry gives it', () => {
    const wrong = Object.entries(errorCodes)
      .filter(([code, entry]) => {
        const row = documented.get(code);
        return row !== undefined && (row.part !== entry.part || row.status !== (entry.status === undefined ? '-' : String(entry.status)));
      })
      .map(([code, entry]) => `${code}: registry says part ${entry.part}, status ${entry.status ?? '-'}; doc says ${JSON.stringify(documented.get(code))}`);
    expect(wrong).toEqual([]);
  });
});
