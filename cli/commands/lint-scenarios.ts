/**
 * `adk-conformance lint-scenarios [DIR]`: lint the scenario corpus (default: scenarios/). Prints
 * one line per issue, `file: path: message (rule)`, then a summary; exit 1 on any issue.
 */
import { relative, resolve } from 'node:path';
import { parseOptions, UsageError } from '../args.ts';
import { renderAnthropicCall } from '../../mock-adk/core/anthropic.ts';
import { applyFaults, faultNames } from '../../mock-adk/core/faults.ts';
import { render } from '../../mock-adk/core/render.ts';
import type { ReplayPlan } from '../../mock-adk/core/types.ts';
import { scenarioDialects } from '../../mock-adk/core/scenario-dialects.ts';
import { lintCorpus, type LintOptions } from '../../scenarios/lint.ts';
import { defaultScenariosDir } from '../../scenarios/loader.ts';

const help = `usage: adk-conformance lint-scenarios [DIR]

Check every <id>.json scenario in DIR (default: the kit's scenarios/ folder): schema validity,
unique ids matching file names, statement-style titles, resolvable spec references, known fault
names, scripts that agree with themselves, and expectations that agree with the renderer.

options:
  --shared DIR   where seeds/ and research/ live (default: <repo>/../shared)
  -h, --help     show this help`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, { shared: { type: 'string' } }, help);
  if (values.help) { process.stdout.write(`${help}\n`); return 0; }
  if (positionals.length > 1) throw new UsageError(`expected at most one folder, got ${positionals.length}: ${positionals.join(' ')}\n\n${help}`);
  const dir = resolve(positionals[0] ?? defaultScenariosDir);
  const options: LintOptions<ReplayPlan> = { ...mockLintOptions(), ...(values.shared ? { sharedDir: resolve(values.shared) } : {}) };
  let result: ReturnType<typeof lintCorpus>;
  try {
    result = lintCorpus(dir, options);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const show = (file: string) => (file.startsWith(process.cwd()) ? relative(process.cwd(), file) || file : file);
  for (const issue of result.issues) process.stdout.write(`${show(issue.file)}: ${issue.path || '/'}: ${issue.message} (fails rule ${issue.rule})\n`);
  const files = new Set(result.issues.map((i) => i.file)).size;
  const summary = result.issues.length === 0
    ? `lint-scenarios: ${result.fileCount} scenario files in ${show(dir)}, no issues`
    : `lint-scenarios: ${result.issues.length} issue${result.issues.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} (${result.fileCount} scenario files in ${show(dir)})`;
  process.stdout.write(`${summary}\n`);
  return result.issues.length === 0 ? 0 : 1;
}

/** The mock's renderer and fault catalogue: the frame-count and fault-name rules need them. */
export function mockLintOptions(): LintOptions<ReplayPlan> {
  return { render, applyFaults, renderAnthropicCall, faultNames, dialectsOf: scenarioDialects };
}
