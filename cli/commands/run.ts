/**
 * `adk-conformance run`: certify an implementation (or the reference) against the scenarios and
 * write the reports. Exit 0 when compliant at the requested level, 1 when not, 2 on a usage or
 * configuration error.
 */
import { relative } from 'node:path';
import { CouldNotEvaluateError, UsageError, nearest, parseOptions } from '../args.ts';
import { resolveShimHere } from '../shim.ts';
import { runCertification, stdoutOut, type CertifyOptions } from '../../harness/certify.ts';
import { parseTargetSpec, targetFlags, type TargetFlags } from '../../harness/targets/spec.ts';
import { configAsFlags, loadConfig, mergeFlags } from '../../harness/config.ts';
import { defaultGeneratedCount } from '../../harness/generated.ts';
import { resolveSeed } from '../../harness/seed.ts';
import { packageVersion } from '../../harness/version.ts';
import { upstreamNames } from '../../harness/upstream.ts';
import { exitCodeOf, exitCodes } from '../../harness/verdict.ts';
import { colourEnabled, createPaint } from '../../harness/colour.ts';
import { loadBaseline } from '../../harness/baseline.ts';
import { uncoveredFailures } from '../../harness/baseline-gate.ts';

const help = `usage: adk-conformance run [target] [options]

target (none: certify the reference implementation):
  --gateway URL             a running gateway; point its upstream at the mock (--mock-port, default 8080)
  --gateway-cmd "CMD"       spawn the gateway: PORT and ADK_UPSTREAM_URL are set in its environment
  --transformer-cmd "CMD"   a transformer speaking the NDJSON stdio contract (docs/transform-contract.md)
  --transformer-module PATH a transformer module (the module contract: docs/harness.md)
  --normalizer-cmd "CMD"    a block-index normaliser speaking the NDJSON contract (docs/normalizer.md)
  --normalizer-module PATH  a normaliser module
  --client-cmd "CMD"        a POST SSE client reading a /run_sse body on stdin, NDJSON records out (docs/client-contract.md)
  --client-module PATH      a client module exporting createClient; it makes the real POST /run_sse (docs/client-contract.md)
  --audit-bridge-cmd "CMD"  an audit bridge speaking the NDJSON operation contract (docs/audit-bridge-contract.md)
  --audit-bridge-module PATH an audit bridge module exporting createAuditBridge (docs/audit-bridge-contract.md)
  --proof-stream-module PATH a proof-layer stream module exporting createProofLayerStream (docs/proof-stream-contract.md)
  --adk-server-module PATH  a server helper exporting createAdkServer({runner}): it is handed a real adk-js Runner and serves POST /run_sse (docs/adk-server-contract.md)
  --proxy URL               a running cookie-to-bearer proxy whose BACKEND_URL is http://127.0.0.1:<--backend-port> (docs/proxy-contract.md)
  --proxy-cmd "CMD"         a cookie-to-bearer proxy started with PORT and BACKEND_URL (docs/proxy-contract.md)
  --backend-port N          with --proxy: where the harness serves the proxy's backend (default 8000)
  --auth-cookie NAME        with a proxy: the cookie holding the access token (default access_token)
  --csrf-cookie NAME        with a proxy: the double-submit CSRF cookie (default csrf_token)
  --csrf-header NAME        with a proxy: the header echoing it (default X-CSRF-Token; e.g. X-XSRF-TOKEN)
  --mock-port N             port of the mock ADK server the harness starts (default 8080 with --gateway, else free)
  --jwt-secret S            HS256 secret your gateway verifies (for the auth checks)
  --app-name NAME           with a gateway: the one app it serves (seed 004: "e.g., vana"); every run, legacy
                            route and mock session then names it (default: each scenario's id)
  --gateway-serves LIST     with a gateway: what it serves besides /run_sse, comma-separated: cookie-proxy
                            (POST /api/sse/run_sse, GW-PROXY-002), run-sse-enhanced (GW-ENH-001); default none,
                            as the seeds put both elsewhere (what is not declared is not applicable);
                            legacy-elsewhere: the legacy .../run routes stay in another app (GW-LEGACY-001/002
                            not applicable; judged by default)
  --startup-timeout S       seconds a started implementation may take to get ready: a gateway or proxy to listen on
                            $PORT (default 20, the proxy 15); a transformer or client command to answer an empty
                            input (default 30 and 10), measured once and excluded from every run's clock; start-up
                            is never judged as behaviour
  --protocol auto|session|one-shot
                            how a transformer or client command is run: auto (default) asks it for the session
                            form (docs/session-protocol.md: one long-lived process, many runs) and uses the form it
                            answers in; one-shot starts a fresh process per run
  --spec 1.0|1.1            the AgentBriefingEvent spec a transformer is judged against (default: the schema_version
                            its first events declare, else 1.0; docs/versioning.md "Spec versions")

options:
  --level must|should|may   gate level: exit 0 when the verdict reaches it (default must)
  --baseline FILE           expected-failure baseline (docs/baseline.md): exit 0 when every failure at the gate's
                            levels is listed in FILE and no listed entry now passes; the verdict is unchanged.
                            Write one with 'adk-conformance report baseline REPORT_DIR > FILE'
  --grep WORD|/RE/          only what it names: a requirement id or tag, a scenario id, family or tag, or a probe,
                            exactly; else a substring (any case) or /pattern/ of scenario ids and probe labels,
                            like vitest's -t (repeatable, or comma-separated; each prints how many scenarios matched)
  --skip WORD|/RE/          leave out what it names, scenarios and probes only (a scenario id, family or tag, or
                            probe:<id>; else a substring or /pattern/), e.g. --skip probe:client-memory while you
                            iterate; the run then gates only what the rest exercises, like a --grep
  --bail N                  stop after N failed runs (a scenario or probe run that failed a requirement); the runs
                            not made are errored "not run: --bail N", and the verdict is never compliant
  --seed N|random           seed for generated cases and ids (default: derived from the kit version, so the
                            same code and kit give the same verdict; 'random' explores and prints the seed)
  --out DIR                 report folder (default reports/latest); '-' writes the one --reporter's report to stdout
                            and every other line to stderr (--reporter json --out - | jq ...)
  --reporter LIST           json,junit,md,html (default all four)
  --shard I/N               run the I-th of N shards (merge with 'adk-conformance report merge')
  --scenarios DIR           scenario folder (default the kit's corpus)
  --timeout-ms N            bound for one scenario (default 30000)
  --jobs N                  scenario runs at once, across the parts (which run side by side) (default:
                            twice the cores, at most 8; 1: one after another); timing-sensitive scenarios
                            and probes always run alone, and the report is the same whatever N is
  --generated N             also certify N fast-check generated runs drawn from the seed (default ${defaultGeneratedCount}; 0: none);
                            a failing one is shrunk to the smallest failing run (docs/hostile.md)
  --upstream mock|real-adk-js  what serves the scenarios (default mock). real-adk-js: each scenario the real
                            adk-js 2.0.0 runtime can play runs on it first, and the target is certified on
                            the bytes it wrote; the run gates what those scenarios exercise (docs/fidelity.md)
  --config PATH             settings file (default: ./adk-conformance.config.json if present); flags override it
                            (docs/configuration.md: keys, the applicability profile)

Console: colour on a terminal (NO_COLOR=1 turns it off, FORCE_COLOR=1 on, e.g. in CI); progress as i/N runs with
the time left, in place on a terminal, one line every 10 s in a log.
Exit codes: 0 compliant at --level, 1 not compliant, 2 usage or configuration error, 3 could not evaluate
(nothing applicable was observed) (docs/harness.md "Exit codes").`;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    gateway: { type: 'string' }, 'gateway-cmd': { type: 'string' }, 'mock-port': { type: 'string' },
    'transformer-cmd': { type: 'string' }, 'transformer-module': { type: 'string' }, 'startup-timeout': { type: 'string' }, protocol: { type: 'string' }, spec: { type: 'string' },
    'normalizer-cmd': { type: 'string' }, 'normalizer-module': { type: 'string' }, 'jwt-secret': { type: 'string' },
    'client-cmd': { type: 'string' }, 'client-module': { type: 'string' },
    'audit-bridge-cmd': { type: 'string' }, 'audit-bridge-module': { type: 'string' }, 'proof-stream-module': { type: 'string' }, 'adk-server-module': { type: 'string' },
    proxy: { type: 'string' }, 'proxy-cmd': { type: 'string' }, 'backend-port': { type: 'string' },
    'app-name': { type: 'string' }, 'gateway-serves': { type: 'string' },
    'auth-cookie': { type: 'string' }, 'csrf-cookie': { type: 'string' }, 'csrf-header': { type: 'string' },
    level: { type: 'string' }, grep: { type: 'string', multiple: true }, skip: { type: 'string', multiple: true }, seed: { type: 'string' }, out: { type: 'string' },
    reporter: { type: 'string' }, shard: { type: 'string' }, scenarios: { type: 'string' }, 'timeout-ms': { type: 'string' },
    config: { type: 'string' }, baseline: { type: 'string' }, generated: { type: 'string' }, upstream: { type: 'string' }, jobs: { type: 'string' }, bail: { type: 'string' },
  }, help);
  if (values.help) { process.stdout.write(help + '\n'); return 0; }
  if (positionals.length > 0) throw new UsageError(strayArguments(argv, positionals));
  const loaded = await loadConfig(values.config !== undefined ? { path: values.config } : {});
  if (loaded) Object.assign(values, mergeFlags(values, configAsFlags(loaded)));
  const flags: TargetFlags = {
    gateway: values.gateway, 'gateway-cmd': values['gateway-cmd'], 'mock-port': values['mock-port'],
    'transformer-cmd': values['transformer-cmd'], 'transformer-module': values['transformer-module'],
    'normalizer-cmd': values['normalizer-cmd'], 'normalizer-module': values['normalizer-module'], 'jwt-secret': values['jwt-secret'],
    'client-cmd': values['client-cmd'], 'client-module': values['client-module'],
    'audit-bridge-cmd': values['audit-bridge-cmd'], 'audit-bridge-module': values['audit-bridge-module'], 'proof-stream-module': values['proof-stream-module'], 'adk-server-module': values['adk-server-module'],
    proxy: values.proxy, 'proxy-cmd': values['proxy-cmd'], 'backend-port': values['backend-port'],
    'startup-timeout': values['startup-timeout'], protocol: values.protocol, spec: values.spec, 'app-name': values['app-name'], 'gateway-serves': values['gateway-serves'],
    'auth-cookie': values['auth-cookie'], 'csrf-cookie': values['csrf-cookie'], 'csrf-header': values['csrf-header'],
  };
  const notes: string[] = [];
  for (const [flag, value] of Object.entries(flags) as Array<[keyof TargetFlags, string | undefined]>) {
    if (!flag.endsWith('-cmd') || value === undefined) continue;
    const resolved = resolveShimHere(`--${flag}`, value);
    flags[flag] = resolved.command;
    if (resolved.note !== undefined) notes.push(resolved.note);
  }
  const options = parseRunOptions(values, flags);
  for (const note of notes) options.log(note);
  if (loaded) {
    options.log(`config: ${relative(process.cwd(), loaded.file) || loaded.file}`);
    if (loaded.config.profile) options.profile = loaded.config.profile;
  }
  const baselinePath = values.baseline as string | undefined;
  if (baselinePath !== undefined) options.baseline = loadBaseline(baselinePath, relative(process.cwd(), baselinePath) || baselinePath);
  let result;
  try {
    result = await runCertification(options);
  } catch (error) {
    // With the report on stdout, stdout holds nothing else: the "could not evaluate" line goes to stderr.
    if (options.outDir === stdoutOut && error instanceof CouldNotEvaluateError) {
      process.stderr.write(`verdict: could not evaluate (exit ${exitCodes.couldNotEvaluate})\nadk-conformance run: could not evaluate: ${error.message}\n`);
      return exitCodes.couldNotEvaluate;
    }
    throw error;
  }
  if (options.shard) {
    // A shard sees only its share of the scenarios: what other shards exercise is untested here, so
    // only a failure it found is a reason to stop; the merged report is the gate.
    // With a baseline, only a failure no entry covers: whether an entry is stale only the merged report can tell.
    const failed = uncoveredFailures(result).length;
    options.log(`shard ${options.shard.index}/${options.shard.total}: ${failed > 0 ? `${failed} requirement${failed === 1 ? '' : 's'} failed${result.baseline ? ' outside the baseline' : ''} (exit 1)` : `no requirement failed${result.baseline ? ' outside the baseline' : ''} (exit 0)`}; requirements only other shards exercise are untested here: gate on \`adk-conformance report merge\` of every shard's report (docs/ci.md)`);
    return failed > 0 ? 1 : 0;
  }
  return exitCodeOf(result);
}

/**
 * `run --transformer-cmd python3 my.py`: the shell split the command, so the flag got `python3`
 * alone and `my.py` is left over. Say so, with the quoted form, instead of certifying `python3`.
 */
export function strayArguments(argv: readonly string[], positionals: readonly string[]): string {
  const first = positionals[0] ?? '';
  const at = argv.indexOf(first);
  const flag = at > 0 ? argv.slice(0, at).reverse().find((a) => a.startsWith('--')) : undefined;
  const joined = flag && at > 0 ? [argv[at - 1], ...positionals].join(' ') : positionals.join(' ');
  if (flag !== undefined && /-(cmd)$/.test(flag.split('=')[0] ?? '')) {
    return `unexpected argument '${first}' after ${flag}: a command with arguments is one value, so quote it: ${flag} "${joined}"`;
  }
  return `unexpected argument '${first}': run takes only --flags (see run --help)${flag ? `; if it belongs to ${flag}, quote the whole value: ${flag} "${joined}"` : ''}`;
}

export function parseRunOptions(values: Record<string, unknown>, flags: TargetFlags): CertifyOptions {
  const level = (values.level as string | undefined) ?? 'must';
  if (level !== 'must' && level !== 'should' && level !== 'may') throw new UsageError(`--level must be must, should or may, got '${level}'.`);
  const { seed, seedSource } = resolveSeed(values.seed as string | undefined, packageVersion());
  const reporters = ((values.reporter as string | undefined) ?? 'json,junit,md,html').split(',').map((r) => r.trim()).filter(Boolean);
  for (const r of reporters) if (!['json', 'junit', 'md', 'html'].includes(r)) throw new UsageError(`--reporter ${r} is not one of json, junit, md, html.`);
  let shard: CertifyOptions['shard'];
  const shardText = values.shard as string | undefined;
  if (shardText !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(shardText);
    const index = Number(m?.[1]);
    const total = Number(m?.[2]);
    if (!m || total < 1 || index < 1 || index > total) throw new UsageError(`--shard takes I/N with 1 <= I <= N (e.g. 2/4), got '${shardText}'.`);
    shard = { index, total };
  }
  const timeoutText = values['timeout-ms'] as string | undefined;
  const scenarioTimeoutMs = timeoutText === undefined ? 30_000 : Number(timeoutText);
  if (!Number.isInteger(scenarioTimeoutMs) || scenarioTimeoutMs < 100) throw new UsageError(`--timeout-ms must be an integer of at least 100, got '${timeoutText}'.`);
  const generatedText = values.generated as string | undefined;
  const generated = generatedText === undefined ? defaultGeneratedCount : Number(generatedText);
  if (!Number.isSafeInteger(generated) || generated < 0 || generated > 10_000) throw new UsageError(`--generated must be an integer from 0 to 10000, got '${generatedText}'.`);
  const upstreamText = (values.upstream as string | undefined) ?? 'mock';
  if (!(upstreamNames as readonly string[]).includes(upstreamText)) {
    const near = nearest(upstreamText, [...upstreamNames]) ?? upstreamNames.find((n) => upstreamText !== '' && n.startsWith(upstreamText));
    throw new UsageError(`--upstream must be one of ${upstreamNames.join(', ')}, got '${upstreamText}'${near ? ` (did you mean '${near}'?)` : ''}.`);
  }
  const jobsText = values.jobs as string | undefined;
  const jobs = jobsText === undefined ? undefined : Number(jobsText);
  if (jobs !== undefined && (!Number.isSafeInteger(jobs) || jobs < 1 || jobs > 64)) throw new UsageError(`--jobs must be an integer from 1 to 64, got '${jobsText}'.`);
  // Repeatable, or comma-separated.
  const wordsOf = (given: unknown): string[] => ((given as string[] | undefined) ?? []).flatMap((g) => g.split(',')).map((g) => g.trim()).filter(Boolean);
  const grep = wordsOf(values.grep);
  const skip = wordsOf(values.skip);
  const bailText = values.bail as string | undefined;
  const bail = bailText === undefined ? undefined : Number(bailText);
  if (bail !== undefined && (!Number.isSafeInteger(bail) || bail < 1)) throw new UsageError(`--bail must be a positive integer (stop after that many failed runs), got '${bailText}'.`);
  const out = (values.out as string | undefined) ?? 'reports/latest';
  const toStdout = out === stdoutOut;
  if (toStdout && reporters.length !== 1) throw new UsageError(`--out - writes one report to stdout: choose one reporter, e.g. --reporter json (got ${reporters.join(',')}).`);
  // With the report on stdout, every console line goes to stderr, so stdout is the report alone.
  const consoleStream = toStdout ? process.stderr : process.stdout;
  const target = parseTargetSpec(flags);
  const replayFlags = targetFlags(flags);
  return {
    target,
    level,
    seed,
    seedSource,
    grep,
    ...(skip.length > 0 ? { skip } : {}),
    ...(shard ? { shard } : {}),
    outDir: out,
    ...(bail !== undefined ? { bail } : {}),
    paint: createPaint(colourEnabled(process.env, consoleStream.isTTY === true)),
    interactive: consoleStream.isTTY === true && !process.env.CI,
    reporters: reporters as CertifyOptions['reporters'],
    ...(values.scenarios ? { scenariosDir: values.scenarios as string } : {}),
    scenarioTimeoutMs,
    generated,
    ...(upstreamText === 'real-adk-js' ? { upstream: 'real-adk-js' as const } : {}),
    ...(jobs !== undefined ? { jobs } : {}),
    replayBase: `npx adk-conformance run${replayFlags ? ` ${replayFlags}` : ''}`,
    // The verdict line says how long the user waited: from the process's start (performance.now() counts from it).
    startedAt: 0,
    log: (line) => consoleStream.write(line + '\n'),
    write: (text) => consoleStream.write(text),
    relativeOut: (p) => relative(process.cwd(), p) || '.',
  };
}
