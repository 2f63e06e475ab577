import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReporterList, reporterNames, writeReports } from './index.ts';
import { realisticRun } from './test-fixture.ts';

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'adk-reports-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('writeReports', () => {
  it('writes every reporter into a new nested outDir and returns the paths', async () => {
    const outDir = join(await tempDir(), 'a', 'b');
    const paths = await writeReports(realisticRun(), { outDir });
    expect(paths).toEqual(['report.json', 'junit.xml', 'report.md', 'report.html'].map((f) => join(outDir, f)));
    const json = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8'));
    expect(json.verdict).toBe('non-compliant');
    expect(await readFile(join(outDir, 'report.html'), 'utf8')).toContain('<h1 id="verdict">non-compliant</h1>');
  });

  it('writes only the chosen reporters', async () => {
    const outDir = await tempDir();
    expect(await writeReports(realisticRun(), { outDir, reporters: ['md'] })).toEqual([join(outDir, 'report.md')]);
  });

  it('refuses an unknown reporter before writing anything', async () => {
    const outDir = join(await tempDir(), 'never');
    await expect(writeReports(realisticRun(), { outDir, reporters: ['pdf' as 'md'] })).rejects.toThrow(/unknown reporter 'pdf'.*json, junit, md, html/);
    await expect(readFile(join(outDir, 'report.json'))).rejects.toThrow(/ENOENT/);
  });
});

describe('parseReporterList', () => {
  it('accepts repeated flags, comma lists and the markdown alias, without duplicates', () => {
    expect(parseReporterList(['json,html', 'markdown', 'json'])).toEqual(['json', 'html', 'md']);
    expect(reporterNames).toEqual(['json', 'junit', 'md', 'html']);
  });

  it('names an unknown reporter and the known ones', () => {
    expect(() => parseReporterList(['json,xml'])).toThrow("unknown reporter 'xml'; the reporters are json, junit, md, html");
  });
});
