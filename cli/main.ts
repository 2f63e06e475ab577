/**
 * `adk-conformance` entry point: a registry of subcommands, each a module under cli/commands/
 * exporting `run(argv): Promise<number>` (the exit code). Modules load lazily so that `mock`
 * does not pay for the harness and vice versa.
 */
import { CouldNotEvaluateError, UsageError } from './args.ts';
import { exitCodes } from '../harness/verdict.ts';
import { childNice } from '../harness/child-priority.ts';

// A computed specifier: commands land one by one, and a missing one is reported, not a type error.
const loadCommand = (file: string) => import(`./commands/${file}.ts`) as Promise<{ run: (argv: string[]) => Promise<number> }>;

type Command = { summary: string; load: () => Promise<{ run: (argv: string[]) => Promise<number> }> };

export const commands: Record<string, Command> = {
  mock: { summary: 'serve the mock ADK API server (scenarios replayed byte for byte)', load: () => loadCommand('mock') },
  scenarios: { summary: 'list the scenario corpus (ids, families, tags, spec references)', load: () => loadCommand('scenarios') },
  'lint-scenarios': { summary: 'check every scenario file against its schema and the corpus rules', load: () => loadCommand('lint-scenarios') },
  gateway: { summary: 'serve the reference /run_sse gateway', load: () => loadCommand('gateway') },
  proxy: { summary: 'serve the reference cookie-to-bearer SSE proxy (POST /api/sse/run_sse)', load: () => loadCommand('proxy') },
  tap: { summary: 'a judging proxy: forward live traffic unchanged and judge each /run_sse stream as it passes', load: () => loadCommand('tap') },
  normalize: { summary: 'NDJSON stdio filter: Anthropic stream events of one turn -> block-indexed frontend events', load: () => loadCommand('normalize') },
  frames: { summary: "print a scenario's data lines, one per line, as a transformer under test reads them", load: () => loadCommand('frames') },
  transform: { summary: 'NDJSON stdio filter: ADK frame payloads -> AgentBriefingEvents', load: () => loadCommand('transform') },
  record: { summary: 'record a real run into a scenario (bytes, timing, headers; secrets redacted)', load: () => loadCommand('record') },
  'import-adk-conformance': { summary: "import ADK's own conformance cases (spec.yaml + generated goldens) as scenarios", load: () => loadCommand('import-adk-conformance') },
  run: { summary: 'certify an implementation against the scenarios and write reports', load: () => loadCommand('run') },
  validate: { summary: 'validate an NDJSON file of events against a schema', load: () => loadCommand('validate') },
  report: { summary: 'work with reports (report merge DIR..., report baseline DIR > FILE)', load: () => loadCommand('report') },
  start: { summary: 'the main job: certify the reference implementation on the embedded mock', load: () => loadCommand('start') },
  fidelity: { summary: 'run the scenarios on the REAL adk-js 2.0.0 server and on the mock, and compare', load: () => loadCommand('fidelity') },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return ['usage: adk-conformance <command> [options]', '       adk-conformance --version', '', 'commands:', ...lines, '', "Run 'adk-conformance <command> --help' for a command's options.", 'Exit codes: 0 compliant, 1 non-compliant, 2 usage or configuration error, 3 could not evaluate (docs/harness.md "Exit codes").'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    // The kit's version alone on stdout, so `$(adk-conformance --version)` is the version string.
    const { packageVersion } = await import('../harness/version.ts');
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`adk-conformance: unknown command '${name}'.\n\n${usage()}\n`);
    return 2;
  }
  try { childNice(); } catch (error) {
    process.stderr.write(`adk-conformance ${name}: ${(error as Error).message}\n`);
    return 2;
  }
  let mod: Awaited<ReturnType<Command['load']>>;
  try {
    mod = await command.load();
  } catch (error) {
    // Only the command's own module missing means "not built"; a module it imports missing is a broken install.
    const message = (error as Error).message ?? '';
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && message.includes(`/cli/commands/${name}.`)) {
      process.stderr.write(`adk-conformance: the '${name}' command is not built yet in this version.\n`);
      return 2;
    }
    throw error;
  }
  try {
    return await mod.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`adk-conformance ${name}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof CouldNotEvaluateError) {
      // No verdict over nothing observed: exit 3, its own code, so CI can tell it from a failure (1) and a usage error (2).
      process.stdout.write(`verdict: could not evaluate (exit ${exitCodes.couldNotEvaluate})\n`);
      process.stderr.write(`adk-conformance ${name}: could not evaluate: ${error.message}\n`);
      return exitCodes.couldNotEvaluate;
    }
    throw error;
  }
}

// Run directly (`tsx cli/main.ts ...`), as npm scripts do.
if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (error: unknown) => { process.stderr.write(`${(error as Error).stack ?? String(error)}\n`); process.exitCode = 1; },
  );
}
