/**
 * `adk-conformance fidelity [--grep ID|TAG] [--json FILE]`: run every scenario the real adk-js
 * runtime can express on the REAL adk-js 2.0.0 server and on the mock, non-streaming and
 * streaming, and say per scenario whether a client sees the same thing (docs/fidelity.md).
 * Exit 0 when every expressible scenario is identical, 1 otherwise, 2 on a usage error or when
 * the optional real-runtime packages are not installed.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { nearest, parseOptions, UsageError } from '../args.ts';
import { processLineIo, type LineIo } from '../io.ts';
import { defaultScenariosDir, loadScenarios, type Scenario } from '../../scenarios/loader.ts';
import { MODES, runFidelity, type ModeName, type ScenarioResult } from '../../real-adk/fidelity.ts';
import { loadRealAdk, RealAdkMissingError } from '../../real-adk/load.ts';

const help = `usage: adk-conformance fidelity [--grep ID|TAG] [--json FILE] [--mode MODE] [--dir DIR]

Run each scenario the real adk-js runtime can express on the REAL adk-js 2.0.0 API server
(@google/adk-devtools, in process, scripted model, no network) and on the mock (adk-js dialect),
non-streaming and streaming, and compare status, headers, events (keys, key order, values) and the
session after the run, with only volatile values normalised (docs/fidelity.md).

options:
  --grep ID|TAG   only these scenario ids or tags (repeatable, or comma-separated)
  --json FILE     also write the report as JSON to FILE
  --mode MODE     only ${MODES.map((m) => m.name).join(' or ')} (default: both)
  --dir DIR       read scenarios from DIR (default: the kit's scenarios/ folder)
  --strict        also compare the user's own event in GET session, which the mock does not
                  store (docs/mock.md); left out by default
  -h, --help      show this help

exit: 0 every expressible scenario is identical, 1 some differ, 2 usage error or the real
runtime is not installed.`;

function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? 'undefined';
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

export function formatResult(result: ScenarioResult): string {
  if (result.outcome === 'not-expressible') return `${result.id}: not expressible: ${result.reason}`;
  // A mode the script cannot be played in is named, so "identical" never hides that it was not run.
  const gaps = (result.notIn ?? []).map((n) => `  ${n.mode}: not expressible: ${n.notExpressible}`);
  if (result.outcome === 'identical') return [`${result.id}: identical${gaps.length > 0 ? ` (${result.modes.map((m) => m.mode).join(', ')})` : ''}`, ...gaps].join('\n');
  const lines = [`${result.id}: different`, ...gaps];
  for (const m of result.modes) {
    if (m.identical) lines.push(`  ${m.mode}: identical`);
    else if (m.error !== undefined) lines.push(`  ${m.mode}: error: ${m.error}`);
    else if (m.differences?.[0]) {
      const d = m.differences[0];
      const more = m.differences.length > 1 ? ` (${m.differences.length >= 20 ? '20+' : m.differences.length} differences in all)` : '';
      lines.push(`  ${m.mode}: first difference at ${d.path}: mock ${show(d.mock)}, real ${show(d.real)}${more}`);
    }
  }
  return lines.join('\n');
}

function select(scenarios: Scenario[], grep: string[]): Scenario[] {
  if (grep.length === 0) return scenarios;
  const known = [...new Set(scenarios.flatMap((s) => [s.id, ...s.tags]))];
  for (const g of grep) {
    if (!known.includes(g)) {
      const near = nearest(g, known);
      throw new UsageError(`--grep ${g} names no scenario id or tag${near ? ` (did you mean '${near}'?)` : ''}.`);
    }
  }
  return scenarios.filter((s) => grep.includes(s.id) || s.tags.some((t) => grep.includes(t)));
}

export type FidelityDeps = {
  io?: LineIo;
  /** Stands in for loading the optional real runtime (tests play a machine without it). */
  load?: () => ReturnType<typeof loadRealAdk>;
};

export async function run(argv: string[], deps: FidelityDeps = {}): Promise<number> {
  const io = deps.io ?? processLineIo();
  const load = deps.load ?? (() => loadRealAdk());
  const { values, positionals } = parseOptions(argv, {
    grep: { type: 'string', multiple: true },
    json: { type: 'string' },
    mode: { type: 'string' },
    dir: { type: 'string' },
    strict: { type: 'boolean' },
  }, help);
  if (values.help) { io.out(help); return 0; }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'.\n\n${help}`);
  const modeNames = MODES.map((m) => m.name) as ModeName[];
  if (values.mode !== undefined && !(modeNames as string[]).includes(values.mode)) throw new UsageError(`--mode must be ${modeNames.join(' or ')}, got '${values.mode}'.`);
  let loaded: ReturnType<typeof loadScenarios>;
  try { loaded = loadScenarios(resolve(values.dir ?? defaultScenariosDir)); } catch (error) { throw new UsageError((error as Error).message); }
  for (const error of loaded.errors) io.err(`fidelity: skipped ${error.file}: ${error.path || '/'}: ${error.message}`);
  const grep = (values.grep ?? []).flatMap((g) => g.split(',')).map((g) => g.trim()).filter(Boolean);
  const scenarios = select(loaded.scenarios, grep);

  let modules: Awaited<ReturnType<typeof loadRealAdk>>;
  try {
    modules = await load();
  } catch (error) {
    if (error instanceof RealAdkMissingError) { io.err(`adk-conformance fidelity: ${error.message}`); return 2; }
    throw error;
  }
  const report = await runFidelity({
    scenarios,
    modules,
    ...(values.mode !== undefined ? { modes: [values.mode as ModeName] } : {}),
    strict: values.strict === true,
    onResult: (r) => io.out(formatResult(r)),
  });
  const s = report.summary;
  io.out(`fidelity: ${s.identical} identical, ${s.different} different, ${s.notExpressible} not expressible of ${s.total}`);
  if (values.json !== undefined) writeFileSync(resolve(values.json), `${JSON.stringify(report, null, 2)}\n`);
  return s.different === 0 ? 0 : 1;
}
