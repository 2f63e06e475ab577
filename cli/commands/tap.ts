/**
 * `adk-conformance tap --upstream URL`: a judging reverse proxy (docs/tap.md). Every byte passes
 * unchanged and unbuffered; each run is judged as it passes, one line per run is printed, and the
 * four reports are written to --out when the tap stops (SIGINT/SIGTERM, --runs N or --duration S).
 */
import { resolveShimHere } from '../shim.ts';
import { parseOptions, parsePort, UsageError } from '../args.ts';
import { processLineIo, waitForStopSignal } from '../io.ts';
import { parseReporterList, reporterNames, writeReports } from '../../harness/reporters/index.ts';
import { join } from 'node:path';
import { connect } from 'node:net';
import { createFailingRunSaver, createReportCollector, createTapCore, defaultLimits, parseUpstream, startTap, type Judge, type RunningTap, type TapCore, type TapObserver, type TapRun, type UpstreamRole } from '../../tap/index.ts';
import { createTapPair, pairRequirements, type TapPair } from '../../tap/pair.ts';
import { upstreamFailure } from '../../tap/upstream-failure.ts';
import { createTransformObserver } from '../../tap/transform.ts';
import type { GatewayCommandIo } from './gateway.ts';
import { createLiveObserver } from '../../tap/live-adapter.ts';
import { claimReportDir, releaseIfEmpty, tapReportsBase } from '../../tap/report-dir.ts';
import { checkSaveDir, defaultSaveDir, withDefaultSaveDir } from '../../tap/save-dir.ts';
import type { LiveSink } from '../../tap/live-events.ts';
import { createLiveUi, type LiveUi } from '../../tap/live-ui.ts';
import { createOtlpSink } from '../../tap/otlp-sink.ts';
import { describeObserved, exitCodeOf, exitCodes } from '../../harness/verdict.ts';

const help = `usage: adk-conformance tap --upstream URL [--role gateway|adk] [--host 127.0.0.1] [--port 8090]
                         [--out DIR] [--reporter json,junit,md,html] [--runs N] [--duration S]
                         [--save-failing [DIR]] [--redact REGEX]... [--max-frame-bytes N] [--hold-open-ms N]
                         [--otlp URL] [--ui] [--ui-port N] [--name NAME]
                         [--transform | --transformer-cmd "CMD" | --transformer-module PATH]
       adk-conformance tap --pair --upstream GATEWAY_URL --backend ADK_URL [--back-port 8091] [--gateway-only]
                         [--gateway-timeout-ms N] [same flags]

Forward every request to --upstream and every response byte back, unchanged and unbuffered, and
judge each /run_sse stream as it passes (docs/tap.md lists what, with which requirement ids).

  --upstream         base URL of the ADK server or gateway behind the tap (required)
  --role             what the upstream is: gateway (seed 004's /run_sse gateway: its headers and error
                     frames are judged too) or adk (an ADK API server, or the mock) (default gateway)
  --host, --port     where the tap listens (default 127.0.0.1:8090; 0 lets the kernel choose)
  --out              folder for the reports written when the tap stops (default: a folder of this tap's own,
                     reports/tap/<start time>/, so taps run one after another keep each other's reports)
  --reporter         reporters to write (default all: ${reporterNames.join(', ')})
  --runs N           stop after N runs (POST /run_sse or /run_sse_enhanced) have ended
  --duration S       stop after S seconds
  --save-failing [DIR]  write each failing run as a scenario (credentials dropped, secrets redacted) in DIR
                     (default ./${defaultSaveDir}/; never the kit's own corpus); adk-conformance mock
                     --scenarios DIR replays it
  --redact REGEX     another secret pattern for --save-failing (added to the recorder's list)
  --max-frame-bytes  an event longer than this is forwarded but not judged (default ${defaultLimits.maxFrameBytes})
  --hold-open-ms     silence after the final answer that counts as a held-open stream (default ${defaultLimits.holdOpenMs})
  --otlp URL         export each judged run as a span, its findings as span events, to this OTLP/HTTP
                     collector (e.g. http://127.0.0.1:4318; docs/tap-live.md)
  --ui               serve a live page on 127.0.0.1 that shows runs frame by frame with their findings
  --ui-port N        the live page's port (default 8765; 0 lets the kernel choose)
  --name NAME        this tap's name in exported spans and on the live page (default tap)
  --pair             two taps around a gateway: the front tap (role gateway) on --port forwards to the
                     gateway at --upstream; the back tap (role adk) on --back-port forwards to the ADK
                     server at --backend. Point the gateway's ADK_UPSTREAM_URL at the back tap: each
                     front run is matched with the gateway's upstream run and judged for zero mutation,
                     forwarding, credentials, terminal frames, flushing and aborts (docs/tap.md)
  --backend URL      with --pair: the ADK server behind the gateway (required with --pair)
  --back-port N      with --pair: where the back tap listens (default 8091; 0 lets the kernel choose)
  --gateway-only     with --pair: the verdict and exit status cover the gateway's requirements (GW-*)
                     alone; what the ADK server (back runs) and the client got wrong stays listed in
                     the runs, outside the verdict
  --gateway-timeout-ms N  with --pair: the gateway's total timeout (default 300000, seed 004's 300 s); a
                     stream it ends during an upstream silence of 1 s or more before this is a read
                     timeout's doing (GW-TIMEOUT-002)
  --transform        after each run, feed its stream to the reference transformer and judge its
                     AgentBriefingEvents with the certification's transformer checks (docs/tap-transform.md)
  --transformer-cmd  the same with your transformer command (the transform contract)
  --transformer-module  the same with your transformer module (createTransformer)

Exit 0 when the judged runs are MUST-compliant, 1 when not, 2 on a usage error or when no run passed.`;

export type TapCommandIo = GatewayCommandIo & {
  /** Extra judges (tests inject a throwing one). */
  judges?: readonly Judge[];
  /** Extra observers (plugins). */
  observers?: readonly TapObserver[];
};

const positiveInt = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer, got '${value}'.`);
  return n;
};

export async function run(argv: string[], io: TapCommandIo = processLineIo()): Promise<number> {
  const { values, positionals } = parseOptions(withDefaultSaveDir(argv), {
    upstream: { type: 'string' }, role: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' },
    out: { type: 'string' }, reporter: { type: 'string', multiple: true }, runs: { type: 'string' }, duration: { type: 'string' },
    'save-failing': { type: 'string' }, redact: { type: 'string', multiple: true }, 'max-frame-bytes': { type: 'string' }, 'hold-open-ms': { type: 'string' },
    otlp: { type: 'string' }, ui: { type: 'boolean' }, 'ui-port': { type: 'string' }, name: { type: 'string' },
    pair: { type: 'boolean' }, backend: { type: 'string' }, 'back-port': { type: 'string' }, 'gateway-only': { type: 'boolean' }, 'gateway-timeout-ms': { type: 'string' },
    transform: { type: 'boolean' }, 'transformer-cmd': { type: 'string' }, 'transformer-module': { type: 'string' },
  }, help);
  if (values.help) { io.out(help); return 0; }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'.\n\n${help}`);
  if (values.upstream === undefined) throw new UsageError(`--upstream URL is required: the ADK server or gateway the tap forwards to, e.g. --upstream http://127.0.0.1:8000.\n\n${help}`);
  try { parseUpstream(values.upstream); } catch (error) { throw new UsageError((error as Error).message); }
  const role = (values.role ?? 'gateway') as UpstreamRole;
  if (role !== 'gateway' && role !== 'adk') throw new UsageError(`--role must be gateway or adk, got '${values.role}'.`);
  if (!values.pair && (values.backend !== undefined || values['back-port'] !== undefined)) throw new UsageError('--backend and --back-port go with --pair (two taps around a gateway).');
  if (values.pair) {
    if (role !== 'gateway') throw new UsageError('--pair puts the front tap in front of a gateway: --role must be gateway (the default).');
    if (values.backend === undefined) throw new UsageError(`--pair needs --backend URL: the ADK server behind the gateway, e.g. --backend http://127.0.0.1:8080.\n\n${help}`);
    try { parseUpstream(values.backend); } catch (error) { throw new UsageError((error as Error).message.replace('--upstream', '--backend')); }
  }
  const transformFlags = (['transform', 'transformer-cmd', 'transformer-module'] as const).filter((f) => values[f] !== undefined && values[f] !== false);
  if (transformFlags.length > 1) throw new UsageError(`--${transformFlags.join(', --')} each name the transformer to run on each run: give one.`);
  const backPort = parsePort(values['back-port'], 8091, '--back-port');
  const port = parsePort(values.port, 8090);
  if (values.pair === true && port !== 0 && port === backPort) throw new UsageError(`--port and --back-port are both ${port}: the front and back taps need a port each; pick another --back-port (0 lets the kernel choose).`);
  const maxRuns = positiveInt('--runs', values.runs);
  const durationS = positiveInt('--duration', values.duration);
  let reporters;
  try { reporters = values.reporter ? parseReporterList(values.reporter) : undefined; } catch (error) { throw new UsageError((error as Error).message); }
  for (const pattern of values.redact ?? []) {
    try { new RegExp(pattern, 'g'); } catch (error) { throw new UsageError(`--redact ${pattern} is not a regular expression: ${(error as Error).message}`); }
  }
  const limits = {
    ...(values['max-frame-bytes'] !== undefined ? { maxFrameBytes: positiveInt('--max-frame-bytes', values['max-frame-bytes']) } : {}),
    ...(values['hold-open-ms'] !== undefined ? { holdOpenMs: positiveInt('--hold-open-ms', values['hold-open-ms']) } : {}),
  };
  const saveDir = values['save-failing'] === undefined ? undefined : checkSaveDir(values['save-failing']);

  let stop: (reason: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => { stop = resolve; });
  const pairMode = values.pair === true;
  if (values['gateway-timeout-ms'] !== undefined && !pairMode) throw new UsageError('--gateway-timeout-ms goes with --pair: only two taps see the upstream silence a gateway ended a stream in.');
  const gatewayTimeoutMs = positiveInt('--gateway-timeout-ms', values['gateway-timeout-ms']);
  if (values['gateway-only'] === true && !pairMode) throw new UsageError('--gateway-only needs --pair: only two taps around a gateway tell its findings from the ADK server\'s.');
  const backend = values.backend ?? '';
  const onSaved = (e: { run: TapRun; file: string } | { run: TapRun; error: string }) => ('file' in e ? io.out(`  saved ${e.run.name} as ${e.file}`) : io.err(`  ${e.error}`));
  const saver = saveDir === undefined ? undefined : createFailingRunSaver({ dir: saveDir, upstream: values.upstream, redact: values.redact ?? [], onSaved });
  // With --pair the back tap's failing runs are the ADK server's own streams: saved in DIR/back, so the two taps' files never collide.
  const backSaver = saveDir === undefined || !pairMode ? undefined : createFailingRunSaver({ dir: join(saveDir, 'back'), upstream: backend, redact: values.redact ?? [], onSaved });
  const tapName = values.name ?? 'tap';
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/.test(tapName)) throw new UsageError(`--name must be letters, digits, '-' or '_' (at most 40), got '${tapName}': it names this tap's runs (<name>-run-0001) in reports that \`report merge\` joins.`);
  // Run names carry the tap's name, so the reports of several taps merge without two runs sharing a name.
  const frontPrefix = `${tapName}-run`;
  const backPrefix = tapName === 'tap' ? 'back-run' : `${tapName}-back-run`;
  const isBack = (r: TapRun) => pairMode && r.name.startsWith(`${backPrefix}-`);
  const collector = createReportCollector({
    role,
    upstream: pairMode ? `${values.upstream} (the gateway, front tap) with ${backend} behind it (the ADK server, back tap)` : values.upstream,
    ...(pairMode ? { judgeable: pairRequirements } : {}),
    ...(values['gateway-only'] === true ? { gated: (id: string) => id.startsWith('GW-'), gatedDescription: '--gateway-only' } : {}),
    replayOf: (r) => { const file = (isBack(r) ? backSaver : saver)?.fileOf(r); return file ? `adk-conformance mock --scenarios ${file.slice(0, file.lastIndexOf('/'))} (scenario ${file.slice(file.lastIndexOf('/') + 1, -5)})` : undefined; },
  });
  let pair: TapPair | undefined;
  let frontRuns = 0;
  const printer: TapObserver = {
    onRunEnd(r, s) {
      const failedIds = [...s.judged].filter(([, f]) => f.length > 0).map(([id, f]) => `${id} ${f[0]?.code ?? ''}`.trim());
      if (r.kind === 'other' && failedIds.length === 0) return;
      const upstreamRun = pair?.backOf(r);
      io.out(`${r.name} ${r.method} ${r.url} ${s.status ?? 'no response'} ${s.ending} ${s.frames} events${upstreamRun ? ` (upstream run ${upstreamRun})` : ''}: ${failedIds.length === 0 ? 'passed' : `failed: ${failedIds.join(', ')}`}`);
      if (r.kind === 'run' && !isBack(r) && !r.name.endsWith('/transform')) frontRuns++;
      if (maxRuns !== undefined && frontRuns >= maxRuns) stop(`--runs ${maxRuns}`);
    },
  };
  if (values['ui-port'] !== undefined && !values.ui) throw new UsageError('--ui-port N needs --ui (the live page it sets the port of).');
  if (values.otlp !== undefined) {
    let url: URL | undefined;
    try { url = new URL(values.otlp); } catch { url = undefined; }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`--otlp must be the http(s) URL of an OTLP/HTTP collector, e.g. http://127.0.0.1:4318, got '${values.otlp}'.`);
  }
  const live: LiveSink[] = [];
  const problem = (what: string) => (error: Error) => io.err(`tap: ${what}: ${error.message}`);
  if (values.otlp !== undefined) live.push(createOtlpSink({ url: values.otlp, serviceName: 'adk-conformance-tap', onError: problem(`OTLP export to ${values.otlp}`) }));
  let ui: LiveUi | undefined;
  if (values.ui) {
    const uiPort = parsePort(values['ui-port'], 8765);
    try {
      ui = await createLiveUi({ host: '127.0.0.1', port: uiPort, onError: problem('live page') });
    } catch (error) {
      await Promise.all(live.map((l) => l.close()));
      const message = (error as Error).message;
      throw new UsageError(message.startsWith('the live page cannot listen') ? `${message} (--ui-port)` : `the live page cannot listen on 127.0.0.1:${uiPort}: ${message}; pick another --ui-port (0 lets the kernel choose).`);
    }
    live.push(ui.sink);
  }
  // --transform: each run's stream through a transformer after it ended; its findings join the same report.
  // Started once per judged run: a version manager's shim would cost its start-up every run (cli/shim.ts).
  const shim = values['transformer-cmd'] !== undefined ? resolveShimHere('--transformer-cmd', values['transformer-cmd'], 'the tap starts the command once per judged run') : undefined;
  if (shim?.note !== undefined) io.err(shim.note);
  const transformer = shim !== undefined ? { command: shim.command }
    : values['transformer-module'] !== undefined ? { module: values['transformer-module'] }
      : values.transform ? { reference: true as const } : undefined;
  const transform = transformer === undefined ? undefined : createTransformObserver({
    transformer,
    report: (r, s) => { collector.onRunEnd?.(r, s); printer.onRunEnd?.(r, s); },
    onNotJudged: (r, why) => io.out(`${r.name}: not judged: ${why}`),
  });
  if (transform) {
    try { await transform.start(); } catch (error) { await Promise.all(live.map((l) => l.close())); throw new UsageError((error as Error).message); }
  }
  const onObserverError = (callback: string, error: unknown) => io.err(`tap: an observer's ${callback} threw: ${(error as Error).message ?? String(error)} (the bytes were forwarded)`);
  // The saver runs before the collector, so the report can name the file of a saved run.
  let tapUrl: string | undefined;
  const observers: TapObserver[] = [...(saver ? [saver] : []), collector, printer, ...(live.length > 0 ? [createLiveObserver(live, tapName, () => tapUrl)] : []), ...(transform ? [transform] : []), ...(io.observers ?? [])];
  // Whether the upstream ever answered: a tap whose upstream never did judged nothing (exit 2, not 1).
  const reach = { answered: 0, unreachable: 0, error: '' };
  const reachObserver: TapObserver = {
    onRunEnd(_run, summary) {
      if (summary.status !== undefined) reach.answered++;
      else if (summary.ending === 'upstream-failed' && upstreamFailure(summary.error) !== 'not-http') { reach.unreachable++; reach.error = summary.error ?? ''; }
    },
  };
  let core: TapCore;
  let backCore: TapCore | undefined;
  if (pairMode) {
    // Both taps feed one report; the live sinks are closed once, after both taps stopped.
    pair = createTapPair({ gateway: values.upstream, downstream: observers.map(withoutClose), onObserverError, ...(gatewayTimeoutMs !== undefined ? { gatewayTimeoutMs } : {}) });
    core = createTapCore({ role, limits, runNamePrefix: frontPrefix, judges: io.judges ?? [], observers: [pair.front, reachObserver], onObserverError });
    backCore = createTapCore({
      role: 'adk', limits, judges: io.judges ?? [], runNamePrefix: backPrefix, onObserverError,
      observers: [pair.back, ...(backSaver ? [backSaver] : []), collector, printer, ...(live.length > 0 ? [withoutClose(createLiveObserver(live, `${tapName}-back`))] : [])],
    });
  } else {
    core = createTapCore({ role, limits, runNamePrefix: frontPrefix, judges: io.judges ?? [], observers: [...observers, reachObserver], onObserverError });
  }
  const host = values.host ?? '127.0.0.1';
  let backTap: RunningTap | undefined;
  if (backCore) {
    try {
      backTap = await startTap({ core: backCore, upstream: backend, host, port: backPort });
    } catch (error) {
      await core.stop();
      await backCore.stop();
      await Promise.all(live.map((l) => l.close()));
      throw new UsageError(`the back tap cannot listen on ${host}:${backPort}: ${(error as Error).message}; pick another --back-port (0 lets the kernel choose).`);
    }
  }
  let tap: RunningTap;
  try {
    tap = await startTap({ core, upstream: values.upstream, host, port });
  } catch (error) {
    await core.stop();
    if (backCore) { await backCore.stop(); await backTap?.close(); await Promise.all(live.map((l) => l.close())); }
    throw new UsageError(`the tap cannot listen on ${host}:${port}: ${(error as Error).message}; pick another --port (0 lets the kernel choose).`);
  }
  tapUrl = tap.url;
  // Without --out, a folder of this tap's own (reports/tap/<start time>/), claimed once it listens: a second tap never overwrites the first's reports.
  const outDir = values.out ?? claimReportDir(tapReportsBase, new Date());
  io.out(`tap listening on ${tap.url} (upstream ${values.upstream}, role ${role})${backTap ? ': the front tap, between the client and the gateway' : ''}`);
  if (backTap) {
    io.out(`back tap listening on ${backTap.url} (upstream ${backend}, role adk): between the gateway and the ADK server`);
    io.out(`point the gateway's upstream at the back tap: ADK_UPSTREAM_URL=${backTap.url}`);
  }
  const silent = await unanswered(values.upstream);
  if (silent !== undefined) io.err(`warning: nothing answers at ${values.upstream} yet (${silent}); the tap forwards anyway, and each request gets a 502 from the tap until the upstream answers`);
  if (saveDir !== undefined) io.out(`failing runs are saved to ${saveDir} (replay one: adk-conformance mock --scenarios ${saveDir})`);
  io.out(`reports are written to ${outDir} when the tap stops`);
  if (ui) io.out(`live page on ${ui.url}`);
  if (values.otlp !== undefined) io.out(`exporting runs to the OTLP collector at ${values.otlp}`);
  const timer = durationS === undefined ? undefined : setTimeout(() => stop(`--duration ${durationS}`), durationS * 1000);
  const reason = await Promise.race([stopped, io.stopSignal ?? waitForStopSignal()]);
  if (timer) clearTimeout(timer);
  io.out(`${reason}: stopping the tap`);
  await core.stop();
  if (backCore && pair) {
    // The front runs still open were ended 'stopped'; ending the back's lets the pair judge them.
    await backCore.stop();
    pair.close();
    await Promise.all(live.map((l) => l.close()));
    await backTap?.close();
  }
  await tap.close();
  // The transforms still running report into the collector before the report is taken (bounded).
  await transform?.close();
  const result = collector.result();
  const counts = collector.counts();
  if (!result) {
    if (values.out === undefined) releaseIfEmpty(outDir);
    io.err(counts.runs > 0
      ? `the ${counts.runs} runs exercised no requirement of the gateway (--gateway-only), so there is no verdict and no report`
      : `no run passed through the tap (${counts.other} other requests), so there is no verdict and no report; send POST /run_sse requests to ${tap.url}`);
    io.out(`verdict: could not evaluate (exit ${exitCodes.couldNotEvaluate})`);
    return exitCodes.couldNotEvaluate;
  }
  if (reach.answered === 0 && reach.unreachable > 0) {
    if (values.out === undefined) releaseIfEmpty(outDir);
    io.err(`could not evaluate: the upstream ${values.upstream} never answered (${reach.unreachable} requests, the last: ${reach.error}), so nothing it sends was judged and there is no verdict and no report; start it, or fix --upstream`);
    io.out(`verdict: could not evaluate (exit ${exitCodes.couldNotEvaluate})`);
    return exitCodes.couldNotEvaluate;
  }
  const written = await writeReports(result, { outDir, ...(reporters ? { reporters } : {}) });
  io.out(`runs: ${counts.runs} judged, ${counts.failed} failing${saver ? `; ${saver.saved() + (backSaver?.saved() ?? 0)} saved to ${saveDir}` : ''}`);
  if (pair) {
    const p = pair.stats();
    io.out(`pairs: ${p.fronts} front runs, ${p.paired} matched with the gateway's upstream run; ${p.frontWithoutBack} streams with no upstream run, ${p.backWithoutFront} upstream runs with no front run${p.evicted ? ` (${p.evicted} evicted at the bound)` : ''}${p.overLimit ? `, ${p.overLimit} pairs too long to compare` : ''}${p.upstreamCaused ? `; ${p.upstreamCaused} ADK findings the front tap saw were the ADK server's (kept on the back runs only)` : ''}`);
  }
  for (const [id, t] of collector.perRequirement()) if (t.failedRuns > 0) io.out(`  ${id}: failed in ${t.failedRuns} of ${t.runs} runs (${t.findings} findings)`);
  io.out(`verdict: ${result.verdict} (${describeObserved(result.counts.requirements)})`);
  io.out(`reports: ${written.join(', ')}`);
  return exitCodeOf(result);
}

/** An observer shared by two taps: its close is called once, by the command, not by each tap. */
function withoutClose(observer: TapObserver): TapObserver {
  const { close: _close, ...rest } = observer;
  return rest;
}

/** Why a TCP connection to the upstream's host and port fails (1 s at most), or undefined when one opens. */
function unanswered(upstream: string): Promise<string | undefined> {
  const url = new URL(upstream);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port });
    const done = (why: string | undefined) => { socket.destroy(); clearTimeout(timer); resolve(why); };
    const timer = setTimeout(() => done('no connection within 1 s'), 1000);
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(`${error.code ?? 'error'}: ${error.message}`));
  });
}
