/**
 * `adk-conformance scenarios [--json] [--family F] [--tag T] [--dir DIR]`: the scenario corpus
 * as a table (id, family, dialect, tags, spec references) or, with --json, an array.
 */
import { resolve } from 'node:path';
import { parseOptions, UsageError, nearest } from '../args.ts';
import { defaultScenariosDir, loadScenarios, type Scenario } from '../../scenarios/loader.ts';
import { scenarioDialects } from '../../mock-adk/core/scenario-dialects.ts';
import { versionedName } from '../../mock-adk/core/dialects/names.ts';

const families = ['delegation', 'transfer', 'audit', 'streaming', 'errors', 'missing-done', 'index-reuse', 'framing'] as const;

const help = `usage: adk-conformance scenarios [--json] [--family F] [--tag T] [--dir DIR]

List the scenario corpus.

options:
  --json        print a JSON array of {id, title, family, dialect, dialects, pinned, tags, specRefs, variantOf, file}
  --family F    only family F (${families.join(', ')}); repeatable
  --tag T       only scenarios tagged T; repeatable (all given tags must be present)
  --dir DIR     read scenarios from DIR (default: the kit's scenarios/ folder)
  -h, --help    show this help`;

export type ScenarioSummary = {
  id: string;
  title: string;
  family: Scenario['family'];
  dialect: Scenario['dialect'];
  dialects: Scenario['dialect'][];
  tags: string[];
  specRefs: string[];
  variantOf?: string;
  /** Why the run renders only in its own dialect (captured bytes): the mock serves it so whatever its --dialect. */
  pinned?: string;
  file: string;
};

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    json: { type: 'boolean' },
    family: { type: 'string', multiple: true },
    tag: { type: 'string', multiple: true },
    dir: { type: 'string' },
  }, help);
  if (values.help) { process.stdout.write(`${help}\n`); return 0; }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}' (use --dir DIR for another folder).\n\n${help}`);
  for (const family of values.family ?? []) {
    if (!(families as readonly string[]).includes(family)) {
      const near = nearest(family, families);
      throw new UsageError(`unknown family '${family}'${near ? ` (did you mean '${near}'?)` : ''}; families: ${families.join(', ')}.`);
    }
  }
  let loaded: ReturnType<typeof loadScenarios>;
  try {
    loaded = loadScenarios(resolve(values.dir ?? defaultScenariosDir));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const summaries = loaded.scenarios.map((s, i) => summarise(s, loaded.files[i] ?? '')).filter((s) =>
    (values.family === undefined || values.family.includes(s.family)) && (values.tag ?? []).every((t) => s.tags.includes(t)));
  for (const error of loaded.errors) process.stderr.write(`scenarios: skipped ${error.file}: ${error.path || '/'}: ${error.message}\n`);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
  } else {
    const pinned = summaries.filter((s) => s.pinned !== undefined).length;
    process.stdout.write(`${table(summaries)}\n${summaries.length} scenario${summaries.length === 1 ? '' : 's'}${pinned > 0 ? `; ${pinned} marked (pinned) replay captured bytes: they render only in their own dialect, whatever the mock's --dialect` : ''}\n`);
  }
  return loaded.errors.length > 0 ? 1 : 0;
}

export function summarise(s: Scenario, file: string): ScenarioSummary {
  return {
    id: s.id,
    title: s.title,
    family: s.family,
    dialect: s.dialect,
    dialects: scenarioDialects(s).map((d) => versionedName(d) as Scenario['dialect']),
    tags: [...s.tags],
    specRefs: s.specRefs.map((r) => `${r.doc} ${/^\d/.test(r.section) ? '§' : ''}${r.section}`),
    ...(s.variantOf !== undefined ? { variantOf: s.variantOf } : {}),
    ...(s.pinned !== undefined ? { pinned: s.pinned } : {}),
    file,
  };
}

function table(rows: ScenarioSummary[]): string {
  const header = ['id', 'family', 'dialect', 'tags', 'spec references'];
  const cells = rows.map((r) => [r.id, r.family, `${r.dialects.join(',')}${r.pinned !== undefined ? ' (pinned)' : ''}`, r.tags.join(','), r.specRefs.join('; ')]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => Math.min((c[i] ?? '').length, i === 4 ? 200 : 60))));
  const line = (c: string[]) => c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
