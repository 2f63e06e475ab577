/**
 * `adk-conformance mock`: serve the mock ADK API server until SIGINT/SIGTERM. A scenario file
 * that does not load is reported and skipped; it never stops the others from being served.
 */
import { relative, resolve } from 'node:path';
import { parseOptions, parsePort, UsageError } from '../args.ts';
import { loadScenarios, defaultScenariosDir, type Scenario } from '../../scenarios/loader.ts';
import { ownDialect, scenarioDialects } from '../../mock-adk/core/scenario-dialects.ts';
import type { Dialect } from '../../mock-adk/core/types.ts';
import { startMock } from '../../mock-adk/server/start.ts';
import { describeDialects, resolveDialect, versionedDialectNames, versionedName } from '../../mock-adk/core/dialects/names.ts';
import type { RecordProxyOptions } from '../../mock-adk/server/record-proxy.ts';
import { lintRecording } from '../../recorder/lint.ts';
import { userRedactions } from '../../recorder/redact.ts';
import { processLineIo, waitForStopSignal } from '../io.ts';

const help = `usage: adk-conformance mock [--host 127.0.0.1] [--port 8080] [--dialect NAME] [--scenarios DIR]
       adk-conformance mock --record-from URL [--record-dir DIR] [--normalize-ids] [--redact REGEX]...

Serve the mock ADK API server: every scenario is an app (appName = scenario id), replayed byte
for byte on POST /run_sse. Control routes under /_mock/ (see docs/mock.md).

  --host       interface to listen on (default 127.0.0.1)
  --port       TCP port; 0 lets the kernel choose (default: $PORT, else 8080)
  --dialect    which ADK server (and version) to imitate, one of:
               ${versionedDialectNames.join(', ')}
               (default adk-js@2.0; the aliases adk-js and adk-python mean adk-js@2.0 and adk-python@1.x-genC)
  --scenarios  folder of <id>.json scenario files (default: the kit's corpus)
  --allow-partial
               serve the scenarios that loaded when some files of --scenarios did not (default: exit 2)
  --default-app-name NAME
               adk-python@2.x: the app a run request without app_name runs, as the server's
               ADK_DEFAULT_APP_NAME (default: $ADK_DEFAULT_APP_NAME; unset, such a request is a 400)

recording proxy (docs/recording.md): forward every request to a real ADK server and write each
run (POST /run_sse, /run_sse_enhanced) as a scenario; credentials are forwarded, never recorded.
  --record-from URL  the real ADK server
  --record-dir DIR   where the scenario files go (default: recordings)
  --normalize-ids    rewrite ids and timestamps to deterministic values
  --redact REGEX     also replace matches with [REDACTED] (repeatable; added to the defaults)`;

export type MockCommandIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Resolves when the process is asked to stop (tests pass their own). */
  stopSignal?: Promise<string>;
};

export async function run(argv: string[], io: MockCommandIo = processLineIo()): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    host: { type: 'string' },
    port: { type: 'string' },
    dialect: { type: 'string' },
    scenarios: { type: 'string' },
    'default-app-name': { type: 'string' },
    'record-from': { type: 'string' },
    'record-dir': { type: 'string' },
    'normalize-ids': { type: 'boolean' },
    redact: { type: 'string', multiple: true },
    'allow-partial': { type: 'boolean' },
  }, help);
  if (values.help) { io.out(help); return 0; }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'.\n\n${help}`);
  const host = values.host ?? '127.0.0.1';
  const port = values.port !== undefined ? parsePort(values.port, 8080) : parsePort(process.env['PORT'], 8080, 'the PORT environment variable');
  const dialect = resolveDialect(values.dialect ?? 'adk-js');
  if (!dialect) throw new UsageError(`--dialect must be one of ${describeDialects()}, got '${values.dialect}'.`);
  const recording = recordOptions(values, io);

  let loaded: ReturnType<typeof loadScenarios>;
  try {
    loaded = loadScenarios(values.scenarios ?? defaultScenariosDir);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  for (const e of loaded.errors) io.err(`scenario not loaded: ${e.file}${e.path ? ` at ${e.path}` : ''}: ${e.message}`);
  const folder = values.scenarios ?? defaultScenariosDir;
  // A mock that serves nothing, or less than it was given, must not look like it works.
  if (loaded.scenarios.length === 0 && !recording) {
    throw new UsageError(`no scenario loaded from ${folder}${loaded.errors.length ? ` (${new Set(loaded.errors.map((e) => e.file)).size} files failed: see above)` : ': it has no <id>.json file'}; the mock would serve nothing. Fix the files (adk-conformance lint-scenarios ${folder} explains each) or point --scenarios at a folder of scenarios.`);
  }
  if (loaded.errors.length > 0 && values['allow-partial'] !== true) {
    throw new UsageError(`${new Set(loaded.errors.map((e) => e.file)).size} scenario files in ${folder} did not load (see above); fix them (adk-conformance lint-scenarios ${folder}), or pass --allow-partial to serve the ${loaded.scenarios.length} that did.`);
  }

  // Listen for the stop signal before announcing the URL: a supervisor may signal right after.
  const stopSignal = io.stopSignal ?? waitForStopSignal();
  let mock: Awaited<ReturnType<typeof startMock>>;
  try {
    mock = await startMock({ host, port, dialect, scenarios: loaded.scenarios, scenariosDir: values.scenarios ?? defaultScenariosDir, defaultAppName: values['default-app-name'] ?? process.env['ADK_DEFAULT_APP_NAME'], logger: false, ...(recording ? { recordFrom: recording } : {}) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${host} is already in use; pick another --port (0 lets the kernel choose).`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on host '${host}' (${code}); use an address of this machine, e.g. 127.0.0.1.`);
    throw error;
  }
  io.out(`mock ADK server (${versionedName(dialect)}) listening on ${mock.url}`);
  if (recording) io.out(`recording proxy: forwarding to ${recording.upstream}; runs are written to ${recording.dir}`);
  io.out(`${loaded.scenarios.length} scenarios loaded${loaded.errors.length > 0 ? `; ${new Set(loaded.errors.map((e) => e.file)).size} files not loaded (see above)` : ''}`);
  // A scenario pinned to captured bytes of another server is served in that server's dialect, whatever --dialect says: name each.
  const elsewhere = pinnedElsewhere(loaded.scenarios, dialect);
  if (elsewhere.length > 0) io.out(`${elsewhere.length} pinned to another server's captured bytes, served in its dialect, not ${versionedName(dialect)}: ${elsewhere.map((p) => `${p.id} (${p.dialect})`).join(', ')}; 'adk-conformance scenarios' marks them (pinned)`);

  const signal = await stopSignal;
  io.out(`${signal}: closing the mock`);
  await mock.close();
  return 0;
}

/** Scenarios pinned (scenario.pinned) to a dialect other than the one the mock serves: they keep their own. */
export function pinnedElsewhere(scenarios: readonly Scenario[], served: Dialect): { id: string; dialect: string }[] {
  return scenarios.filter((s) => s.pinned !== undefined && !scenarioDialects(s).includes(served))
    .map((s) => ({ id: s.id, dialect: versionedName(ownDialect(s)) }));
}

/** The recording proxy's options, or undefined without --record-from; each recording is reported. */
function recordOptions(values: { 'record-from'?: string; 'record-dir'?: string; 'normalize-ids'?: boolean; redact?: string[] }, io: MockCommandIo): RecordProxyOptions | undefined {
  const upstream = values['record-from'];
  if (upstream === undefined) {
    for (const flag of ['record-dir', 'normalize-ids', 'redact'] as const) if (values[flag] !== undefined) throw new UsageError(`--${flag} only works with --record-from URL.`);
    return undefined;
  }
  try {
    const url = new URL(upstream);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    userRedactions(values.redact ?? []);
  } catch (error) {
    throw new UsageError(error instanceof TypeError && /redact/.test(error.message) ? error.message : `--record-from ${upstream} is not an http(s) URL; give the ADK server's base URL, e.g. http://127.0.0.1:8000`);
  }
  const dir = resolve(values['record-dir'] ?? 'recordings');
  return {
    upstream, dir, normalizeIds: values['normalize-ids'] === true, redact: values.redact ?? [],
    onRecorded: (event) => {
      if ('error' in event) { io.err(event.error); return; }
      const issues = lintRecording(event.result.scenario, event.file);
      const expect = event.result.scenario.expect;
      io.out(`recorded ${relative(process.cwd(), event.file) || event.file}: ${event.result.dialect.dialect}, HTTP ${expect.status}, ${expect.frames ?? 0} frames, ${expect.outcome}${issues.length ? `; ${issues.length} lint issue(s): ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}` : ''}`);
    },
  };
}


