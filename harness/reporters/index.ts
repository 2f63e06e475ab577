/**
 * The reporters and the one function that writes them. A reporter is a pure `RunResult -> text`;
 * only `writeReports` touches the disk.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { RunResult } from '../model.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';

export const reporters = {
  json: { file: 'report.json', render: renderJson },
  junit: { file: 'junit.xml', render: renderJunit },
  md: { file: 'report.md', render: renderMarkdown },
  html: { file: 'report.html', render: renderHtml },
} as const satisfies Record<string, { file: string; render: (run: RunResult) => string }>;

export type ReporterName = keyof typeof reporters;
export const reporterNames = Object.keys(reporters) as ReporterName[];
export const defaultOutDir = 'reports/latest';

export function isReporterName(name: string): name is ReporterName {
  return Object.hasOwn(reporters, name);
}

/**
 * Reporter names from CLI values: repeated flags and comma lists (`--reporter json,html`).
 * Throws naming the unknown one and the known ones; the CLI maps that to a usage error.
 */
export function parseReporterList(values: readonly string[]): ReporterName[] {
  // `markdown` is accepted for `md`: the file is report.md, but people type the format's name.
  const names = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '').map((v) => (v === 'markdown' ? 'md' : v));
  for (const name of names) {
    if (!isReporterName(name)) throw new TypeError(`unknown reporter '${name}'; the reporters are ${reporterNames.join(', ')}`);
  }
  return [...new Set(names as ReporterName[])];
}

export type WriteReportsOptions = { outDir?: string; reporters?: readonly ReporterName[] };

/** Writes the chosen reporters (all by default) into outDir (created), returning the written paths in reporter order. */
export async function writeReports(result: RunResult, options: WriteReportsOptions = {}): Promise<string[]> {
  const chosen = options.reporters ?? reporterNames;
  for (const name of chosen) {
    if (!isReporterName(name)) throw new TypeError(`writeReports: unknown reporter '${String(name)}'; use one of ${reporterNames.join(', ')}`);
  }
  const outDir = resolve(options.outDir ?? defaultOutDir);
  // Render everything before writing anything, so a reporter bug never leaves a half-written set.
  const rendered = chosen.map((name) => ({ path: join(outDir, reporters[name].file), text: reporters[name].render(result) }));
  await mkdir(outDir, { recursive: true });
  for (const { path, text } of rendered) await writeFile(path, text, 'utf8');
  return rendered.map((r) => r.path);
}
