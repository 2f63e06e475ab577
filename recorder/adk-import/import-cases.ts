/**
 * `importAdkConformance(dir, options)`: every ADK conformance case under `dir` as scenario files in
 * `outDir`, one per recorded mode (generated-session.yaml -> `<category>_<case>.json`,
 * generated-session-sse.yaml -> `<category>_<case>_sse.json`). Partial success keeps what imported:
 * each case that cannot be replayed is reported with its reasons, each unreadable one with the file
 * and the fix, and the others are written all the same.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { defaultScenariosDir } from '../../scenarios/loader.ts';
import { buildScenario, lintBuilt, scenarioId, type Dialect } from './build-scenario.ts';
import { discoverCases, modeFiles, readCase } from './read-case.ts';

export type ImportedEntry = { case: string; mode: 'none' | 'sse'; id: string; file: string; notes: string[] };
export type SkippedEntry = { case: string; mode: 'none' | 'sse' | 'all'; reasons: string[] };
export type FailedEntry = { case: string; file: string; message: string };
export type ImportReport = { root: string; outDir: string; imported: ImportedEntry[]; skipped: SkippedEntry[]; failed: FailedEntry[] };

export type ImportOptions = { outDir: string; dialect?: Dialect };

const schemaFile = resolve(defaultScenariosDir, '..', 'schemas', 'scenario.schema.json');

export function importAdkConformance(dir: string, options: ImportOptions): ImportReport {
  const root = resolve(dir);
  const outDir = resolve(options.outDir);
  const caseDirs = discoverCases(root);
  if (caseDirs.length === 0) {
    throw new Error(`no spec.yaml under ${root}. ADK conformance cases are folders <category>/<case>/ with a spec.yaml and the generated-session*.yaml goldens 'adk conformance record' writes; pass the folder holding them.`);
  }
  const report: ImportReport = { root, outDir, imported: [], skipped: [], failed: [] };
  const usedIds = new Map<string, string>();
  for (const caseDir of caseDirs) {
    const caseRef = relative(root, caseDir) || caseDir;
    const read = readCase(caseDir, root);
    if ('error' in read) {
      report.failed.push({ case: caseRef, file: read.error.file, message: read.error.message });
      continue;
    }
    const adkCase = read.case;
    if (adkCase.modes.length === 0) {
      report.skipped.push({ case: caseRef, mode: 'all', reasons: [`no ${modeFiles.map((m) => m.session).join(' or ')}: record the case first ('adk conformance record ${caseRef}')`] });
      continue;
    }
    for (const mode of adkCase.modes) {
      const modeName = mode.streaming ? 'sse' : 'none';
      let id = scenarioId(adkCase.category, adkCase.name, mode.streaming);
      // Two folders may sanitise to one id (`a-b` and `a_b`): number the later one, and say so.
      const collision = usedIds.get(id);
      const collisionNote = collision ? [`its id ${id} is taken by ${collision}, so it is numbered`] : [];
      for (let n = 2; usedIds.has(id); n++) id = `${scenarioId(adkCase.category, adkCase.name, false).slice(0, 58)}_${n}${mode.streaming ? '_sse' : ''}`;
      const file = join(outDir, `${id}.json`);
      const built = buildScenario(adkCase, mode, { id, root, outDir, schemaFile, ...(options.dialect ? { dialect: options.dialect } : {}) });
      if ('unsupported' in built) {
        report.skipped.push({ case: caseRef, mode: modeName, reasons: built.unsupported });
        continue;
      }
      const issues = lintBuilt(built.scenario, file);
      if (issues.length > 0) {
        report.skipped.push({ case: caseRef, mode: modeName, reasons: issues.map((i) => `the built scenario does not pass the corpus linter: ${i}`) });
        continue;
      }
      mkdirSync(outDir, { recursive: true });
      writeFileSync(file, `${JSON.stringify(built.scenario, null, 2)}\n`);
      usedIds.set(id, caseRef);
      report.imported.push({ case: caseRef, mode: modeName, id, file, notes: [...collisionNote, ...built.notes] });
    }
  }
  return report;
}
