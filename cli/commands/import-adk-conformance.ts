/**
 * `adk-conformance import-adk-conformance DIR [--out DIR] [--dialect D] [--json]`: turn the test
 * cases of ADK's own `adk conformance` tool (tests/<category>/<case>/spec.yaml with its generated
 * session and recordings goldens) into scenarios the mock replays, so the goldens a team already
 * keeps certify its gateway and transformer too (docs/import-adk-conformance.md).
 *
 * Exit 0 when every case imported, 1 when some were skipped or unreadable (the others are still
 * written), 2 on a usage error or when DIR holds no case at all.
 */
import { relative, resolve } from 'node:path';
import { parseOptions, UsageError } from '../args.ts';
import { processLineIo, type LineIo } from '../io.ts';
import { importAdkConformance, type ImportReport } from '../../recorder/adk-import/import-cases.ts';

const dialects = ['adk-js', 'adk-python'] as const;

const help = `usage: adk-conformance import-adk-conformance DIR [--out DIR] [--dialect adk-js|adk-python] [--json]

Import ADK's conformance test cases (DIR/<category>/<case>/spec.yaml with generated-session.yaml
and, for SSE, generated-session-sse.yaml) as scenarios: one <category>_<case>.json per
non-streaming golden and <category>_<case>_sse.json per SSE golden, each a run the mock replays.
A case the scenario format cannot express is skipped with its reasons; the others are kept.

options:
  --out DIR       where to write the scenarios (default: ./imported-scenarios)
  --dialect D     the server to replay as: adk-js or adk-python (default: per golden, adk-js when
                  its timestamps are milliseconds, else adk-python)
  --json          print the report as JSON: {imported, skipped, failed}
  -h, --help      show this help

exit: 0 every case imported; 1 some cases skipped or unreadable (the rest written); 2 usage error
or no case found. Then: adk-conformance lint-scenarios DIR, adk-conformance run --scenarios DIR.`;

export async function run(argv: string[], io: LineIo = processLineIo()): Promise<number> {
  const { values, positionals } = parseOptions(argv, { out: { type: 'string' }, dialect: { type: 'string' }, json: { type: 'boolean' } }, help);
  if (values.help) { io.out(help); return 0; }
  if (positionals.length !== 1) throw new UsageError(`expected one folder of ADK conformance cases, got ${positionals.length === 0 ? 'none' : positionals.join(' ')}.\n\n${help}`);
  const dialect = values.dialect;
  if (dialect !== undefined && !(dialects as readonly string[]).includes(dialect)) throw new UsageError(`--dialect must be adk-js or adk-python, got '${dialect}'.`);
  let report: ImportReport;
  try {
    report = importAdkConformance(positionals[0]!, { outDir: resolve(values.out ?? 'imported-scenarios'), ...(dialect ? { dialect: dialect as (typeof dialects)[number] } : {}) });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.json) {
    io.out(JSON.stringify(report, null, 2));
  } else {
    printReport(report, io);
  }
  return report.skipped.length === 0 && report.failed.length === 0 ? 0 : 1;
}

function printReport(report: ImportReport, io: LineIo): void {
  const show = (file: string) => (file.startsWith(process.cwd()) ? relative(process.cwd(), file) || file : file);
  for (const e of report.imported) {
    io.out(`imported ${e.case} (${e.mode === 'sse' ? 'SSE' : 'non-streaming'}) -> ${show(e.file)}`);
    for (const note of e.notes) io.out(`  note: ${note}`);
  }
  for (const s of report.skipped) {
    io.out(`skipped ${s.case}${s.mode === 'all' ? '' : ` (${s.mode === 'sse' ? 'SSE' : 'non-streaming'})`}:`);
    for (const reason of s.reasons) io.out(`  - ${reason}`);
  }
  for (const f of report.failed) io.err(`error ${f.case}: ${f.message}`);
  io.out(`import-adk-conformance: ${report.imported.length} imported, ${report.skipped.length} skipped, ${report.failed.length} unreadable; scenarios in ${show(report.outDir)}`);
}
