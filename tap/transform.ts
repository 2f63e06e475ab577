/**
 * `tap --transform` (issue 16): an observer that feeds each judged run's stream to a transformer
 * (the reference, `--transformer-cmd "CMD"` or `--transformer-module PATH`) after the run ended, the
 * way the harness's transformer runner does (harness/targets/transformer/drive.ts: one line per data
 * field, the stream's own gaps capped at 100 ms, then a second fresh instance fed the same lines for
 * ABE-DET-001), and judges its briefings with the harness's own checks
 * (harness/checks/transformer `checkTransformer`). The result goes to `report` as a run of its own,
 * `tap-run-0001/transform`, so its requirements land in the same reports as the tap's.
 *
 * A live run has no scenario, so it is judged against a scenario without expectations: every check
 * that needs one (the completion point, the expected outcome and final text, the key briefings) says
 * nothing, and the two whose only exercised part would be an expectation (ABE-TERM-004 on an error
 * frame alone, ABE-LIFE-005 with no ERROR event) are left out too, rather than passed over nothing.
 *
 * Bounds: frames are kept per open run up to `maxRunFrames` / `maxRunBytes` (a longer run is not
 * transformed); at most `maxPending` transforms run at once (a run ending beyond that is not
 * transformed); each transform is bounded (`timeoutMs`); `close` waits at most `closeTimeoutMs`.
 * Nothing here runs before the run's bytes were forwarded and ended: the tap is never delayed.
 */
import { detectSpec } from '../harness/spec-version.ts';
import type { CheckOutcome, Finding } from '../harness/model.ts';
import { checkTransformer } from '../harness/checks/transformer/index.ts';
import { stateOf } from '../harness/checks/transformer/briefing.ts';
import { classifyFrame, type FedFrame, type TransformerObservation, type TransformerRun } from '../harness/checks/transformer/observation.ts';
import { fatalOf, loadTransformerModule, referenceTransformerModule } from '../harness/targets/transformer/runner.ts';
import { backToBack, runBoundMs, driveCommand, driveModule, driveUnstalled, linesWithGaps, type Drive, type DriveSpec, type ModuleFactory } from '../harness/targets/transformer/drive.ts';
import { stallShare } from '../harness/targets/feed-stall.ts';
import type { Scenario } from '../schemas/types.ts';
import type { TapObserver, TapRun, TapRunSummary } from './types.ts';
import { createRunState } from './run-state.ts';

export type TapTransformer = { reference: true } | { command: string } | { module: string };

export type TransformObserverOptions = {
  transformer: TapTransformer;
  /** Called once per transformed run with the synthesized `<run>/transform` run and its summary (the report collector's and the line printer's onRunEnd). */
  report: (run: TapRun, summary: TapRunSummary) => void;
  /** A run that was not transformed or not judged, and why (over a bound, busy, the tap stopped...). */
  onNotJudged?: (run: TapRun, reason: string) => void;
  /** Transforms running at once (default 2); a run that ends while this many run is not transformed. */
  maxPending?: number;
  /** Data fields kept per open run (default 5000); a longer run is not transformed. */
  maxRunFrames?: number;
  /** Bytes of data fields kept per open run (default 4 MiB); a longer run is not transformed. */
  maxRunBytes?: number;
  /** The idle window given to the transformer (default $ADK_CONFORMANCE_IDLE_MS or 500, as in the harness). */
  idleMs?: number;
  /** Per transform, the harness's scenario timeout: the transformer gets max(1 s, min(10 s, timeoutMs / 6)) after its input ended (default 20000; drive.ts runBoundMs). */
  timeoutMs?: number;
  /** Longest gap of the live stream that is replayed (default 100 ms, as in the harness). */
  maxGapMs?: number;
  /** How long `close` waits for pending transforms before reporting them not judged (default 30000). */
  closeTimeoutMs?: number;
};

export type TransformStats = {
  /** Transforms reported through `report`, and how many of them failed. */
  judged: number;
  failed: number;
  /** Runs not transformed or not judged, by reason. */
  notJudged: { notStream: number; overLimit: number; busy: number; ended: number; stall: number; closed: number; error: number };
  pending: number;
};

export type TransformObserver = TapObserver & {
  /** Load the module (or check the options) now; called by the first transform otherwise. Rejects on a module that cannot be loaded. */
  start: () => Promise<void>;
  pending: () => number;
  stats: () => TransformStats;
  close: () => Promise<void>;
};

type Collected = {
  /** From the run's JSON request body. */
  sessionId: string;
  userId: string;
  streaming: boolean;
  frames: Array<{ data: string; arrivedAt: number }>;
  bytes: number;
  t0: number;
  /** Why this run will not be transformed, once known. */
  skip?: { reason: string; kind: keyof TransformStats['notJudged'] };
};

const defaultIdleMs = (): number => {
  const raw = process.env.ADK_CONFORMANCE_IDLE_MS;
  const n = raw === undefined || raw === '' ? 500 : Number(raw);
  return Number.isFinite(n) && n > 0 ? n : 500;
};

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`createTransformObserver: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

/** The scenario a live run is judged against: its id, endpoint and dialect, and no expectation (see the file comment). */
function liveScenario(run: TapRun, kept: Collected): Scenario {
  const endpoint = run.url.split('?')[0] === '/run_sse_enhanced' ? '/run_sse_enhanced' : '/run_sse';
  const scenario: Scenario = {
    id: run.name.replace(/[^a-z0-9_]+/gi, '_').toLowerCase(),
    title: `live run ${run.name} through the tap`,
    family: 'streaming',
    tags: ['live'],
    specRefs: [],
    dialect: run.dialect === 'adk-go' ? 'adk-go@2.0.0' : run.dialect === 'adk-js' ? 'adk-js' : 'adk-python',
    replays: `${run.method} ${run.url} at ${run.startedAt}, through adk-conformance tap`,
    session: { userId: kept.userId, sessionId: kept.sessionId, create: false },
    request: { message: '', endpoint, streaming: kept.streaming },
    // The bytes came from the live upstream: no other dialect renders them (no cross-dialect run).
    upstream: { kind: 'bytes', status: 200, chunks: [], end: 'eof' },
    // No outcome, final text, completion point or key briefings: only what holds for any run is judged.
    expect: { status: 200 } as Scenario['expect'],
  };
  return scenario;
}

/**
 * The outcomes a scenario without expectations cannot give honestly: ABE-TERM-004 when its only
 * trigger is an error frame (its one sub-check there needs `expect.outcome`), and ABE-LIFE-005 when
 * no event has state ERROR (what is left then is "every ERROR event is well formed" over none).
 */
function vacuous(o: CheckOutcome, obs: TransformerObservation): boolean {
  if (o.status !== 'passed') return false;
  if (o.requirement === 'ABE-TERM-004') {
    const done = obs.frames.some((f) => f.kind === 'done');
    const invalid = obs.frames.some((f) => f.kind === 'invalid' || (f.kind === 'error' && !f.json));
    return !done && !invalid;
  }
  if (o.requirement === 'ABE-LIFE-005') return !obs.run.events.some((e) => stateOf(e) === 'ERROR');
  return false;
}

export function createTransformObserver(options: TransformObserverOptions): TransformObserver {
  const t = options.transformer;
  const target: { command: string } | { module: string } = 'reference' in t && t.reference === true ? { module: referenceTransformerModule }
    : 'command' in t && typeof t.command === 'string' && t.command.trim() !== '' ? { command: t.command }
      : 'module' in t && typeof t.module === 'string' && t.module !== '' ? { module: t.module }
        : (() => { throw new TypeError('createTransformObserver: transformer must be {reference: true}, {command: "python3 my_transformer.py"} or {module: "/abs/path/transformer.ts"}'); })();
  if (typeof options.report !== 'function') throw new TypeError('createTransformObserver: report must be a function (run, summary) => void');
  const isCommand = 'command' in target;
  const maxPending = positive('maxPending', options.maxPending, 2);
  const maxRunFrames = positive('maxRunFrames', options.maxRunFrames, 5000);
  const maxRunBytes = positive('maxRunBytes', options.maxRunBytes, 4 * 1024 * 1024);
  const idleMs = positive('idleMs', options.idleMs, defaultIdleMs());
  const timeoutMs = positive('timeoutMs', options.timeoutMs, 20_000);
  const maxGapMs = positive('maxGapMs', options.maxGapMs, 100);
  const closeTimeoutMs = positive('closeTimeoutMs', options.closeTimeoutMs, 30_000);
  // The harness runner's defaults (harness/targets/transformer/runner.ts).
  const toleranceMs = 1000;
  const doneHoldMs = isCommand ? 1000 : 50;
  const boundMs = runBoundMs(timeoutMs);

  // Per run on the run objects, not in a Map or Set every run churns or grows (tap/run-state.ts).
  const open = createRunState<Collected>('transform frames');
  const pending = new Map<number, { transformRun: TapRun; done: Promise<void> }>();
  /** Runs whose outcome was already told (reported or not judged): told once only. Kept on each transform run, so it is forgotten with it. */
  const told = createRunState<true>('transform told');
  const abort = new AbortController();
  const stats: TransformStats = { judged: 0, failed: 0, notJudged: { notStream: 0, overLimit: 0, busy: 0, ended: 0, stall: 0, closed: 0, error: 0 }, pending: 0 };
  let factory: Promise<ModuleFactory> | undefined;
  let closed = false;

  /** A run's frames; none once the transformer closed (what close() used to clear). */
  const keptOf = (run: TapRun): Collected | undefined => (closed ? undefined : open.get(run));
  const transformRunOf = (run: TapRun): TapRun => ({ ...run, name: `${run.name}/transform`, kind: 'run', startedAt: new Date().toISOString() });

  const notJudged = (transformRun: TapRun, kind: keyof TransformStats['notJudged'], reason: string): void => {
    if (told.get(transformRun) === true) return;
    told.set(transformRun, true);
    stats.notJudged[kind]++;
    options.onNotJudged?.(transformRun, `${transformRun.name} not judged: ${reason}`);
  };

  const load = (path: string): Promise<ModuleFactory> => (factory ??= loadTransformerModule(path));

  function drive(lines: DriveSpec['lines'], sessionId: string, enhanced: boolean, holdMs: number, make: ModuleFactory | undefined): Promise<Drive> {
    // A hold is the wait after [DONE]: a command that wrote its terminal event by then has its input closed at once.
    const spec: DriveSpec = { lines, sessionId, enhanced, idleMs, holdMs, boundMs, signal: abort.signal, ...(holdMs > 0 ? { holdUntilTerminal: true as const } : {}) };
    return isCommand ? driveCommand(target.command, spec) : driveModule(make as ModuleFactory, spec);
  }

  /** The harness's steady comparison run: the same lines back to back, run again when the machine stalled the feed. */
  async function driveSteady(lines: DriveSpec['lines'], sessionId: string, enhanced: boolean, make: ModuleFactory | undefined): Promise<TransformerRun> {
    const steady = backToBack(lines);
    return (await driveUnstalled(() => drive(steady, sessionId, enhanced, 0, make), { idleMs, signal: abort.signal })).driven.run;
  }

  async function transform(run: TapRun, transformRun: TapRun, kept: Collected, ending: TapRunSummary['ending']): Promise<void> {
    // Off the tap's onRunEnd call: nothing below runs in the callback that follows the run's last byte.
    await new Promise((resolve) => setImmediate(resolve));
    const t0 = performance.now();
    const make = 'module' in target ? await load(target.module) : undefined;
    const scenario = liveScenario(run, kept);
    const enhanced = scenario.request.endpoint === '/run_sse_enhanced';
    const lines = linesWithGaps(kept.frames, maxGapMs);
    const classified = kept.frames.map((f, index) => ({ index, data: f.data, ...classifyFrame(f.data) }));
    const holdMs = classified.some((f) => f.kind === 'done') ? doneHoldMs : 0;
    const { driven, stallMs } = await driveUnstalled(() => drive(lines, kept.sessionId, enhanced, holdMs, make), { idleMs, signal: abort.signal });
    if (told.get(transformRun) === true) return; // close() gave up on it and said so
    if (stallMs >= idleMs * stallShare) {
      notJudged(transformRun, 'stall', `the tap could not feed the frames on time (a ${Math.round(stallMs)} ms pause the stream does not have, against a ${idleMs} ms idle window, three times); the machine is overloaded`);
      return;
    }
    const frames: FedFrame[] = classified.map((f, i) => ({ ...f, at: driven.fedAt[i] ?? 0 }));
    const repeat = fatalOf(driven.run) ? undefined : await driveSteady(lines, kept.sessionId, enhanced, make);
    if (told.get(transformRun) === true) return;
    const obs: TransformerObservation = {
      scenario, sessionId: kept.sessionId, dialect: scenario.dialect, frames,
      // A run the upstream cut or the client left ended without EOF; the held-open timing (ABE-TERM-003) is not judged live.
      ending: ending === 'eof' ? 'eof' : 'cut',
      timing: { idleMs, toleranceMs, implementationOwnsIdle: !isCommand },
      run: driven.run, ...(repeat ? { repeat } : {}),
      // Judged against the spec its events declare (docs/versioning.md "Spec versions"), run by run.
      spec: detectSpec(driven.run.events.map((e) => e.value)).version,
    };
    const judged = new Map<string, Finding[]>();
    for (const o of checkTransformer(obs)) {
      if (o.status === 'untested' || vacuous(o, obs)) continue;
      const list = judged.get(o.requirement) ?? [];
      list.push(...o.findings.map((f) => ({ ...f, scenario: transformRun.name })));
      judged.set(o.requirement, list);
    }
    if (told.get(transformRun) === true) return;
    told.set(transformRun, true);
    if (judged.size === 0) {
      stats.notJudged.error++;
      options.onNotJudged?.(transformRun, `${transformRun.name} not judged: no transformer requirement could be judged on this run`);
      return;
    }
    const failed = [...judged.values()].some((f) => f.length > 0);
    stats.judged++;
    if (failed) stats.failed++;
    const summary: TapRunSummary = {
      ending, status: 200, frames: kept.frames.length, bytes: kept.bytes, durationMs: Math.round(performance.now() - t0), judged, droppedFindings: 0, failed,
    };
    options.report(transformRun, summary);
  }

  return {
    async start() { if ('module' in target) await load(target.module); },
    onRunStart(run) {
      if (run.kind !== 'run' || closed) return;
      open.set(run, { sessionId: '', userId: '', streaming: false, frames: [], bytes: 0, t0: performance.now() });
    },
    onRequestBody(run, body, truncated) {
      const kept = keptOf(run);
      if (!kept || truncated) return;
      try {
        const request = JSON.parse(Buffer.from(body).toString('utf8')) as { sessionId?: unknown; userId?: unknown; streaming?: unknown } | null;
        if (typeof request?.sessionId === 'string') kept.sessionId = request.sessionId;
        if (typeof request?.userId === 'string') kept.userId = request.userId;
        kept.streaming = request?.streaming === true;
      } catch { /* not JSON: the tap's CLI-REQ-003 says so; the transformer gets no session id */ }
    },
    onResponseHead(run) {
      const kept = keptOf(run);
      if (!kept) return;
      kept.t0 = performance.now();
      const status = run.response?.status;
      const type = run.response?.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
      if (status !== 200 || !/^\s*text\/event-stream\b/i.test(type)) kept.skip = { kind: 'notStream', reason: `the upstream answered HTTP ${status ?? '?'} ${type || 'without a content type'}, not a 200 text/event-stream` };
    },
    onFrame(run, frame) {
      const kept = keptOf(run);
      if (!kept || kept.skip) return;
      // One input line per data field: a multi-line field joined with spaces (docs/transform-contract.md "Input").
      const data = frame.data.replace(/\r\n|\r|\n/g, ' ');
      const size = Buffer.byteLength(data) + 1;
      if (kept.frames.length >= maxRunFrames || kept.bytes + size > maxRunBytes) {
        kept.skip = { kind: 'overLimit', reason: `the run is longer than the ${maxRunFrames} data fields or ${maxRunBytes} bytes a transformed run may have` };
        kept.frames = [];
        return;
      }
      kept.frames.push({ data, arrivedAt: performance.now() - kept.t0 });
      kept.bytes += size;
    },
    onFindings(run, findings) {
      const kept = keptOf(run);
      if (!kept || kept.skip) return;
      // An event over --max-frame-bytes was forwarded but never parsed: the transformer's input would lack it.
      if (findings.some((f) => f.code === 'frame-over-limit')) {
        kept.skip = { kind: 'overLimit', reason: 'an event was over the tap\'s --max-frame-bytes and was not parsed, so the transformer\'s input would lack it' };
        kept.frames = [];
      }
    },
    onRunEnd(run, summary) {
      const kept = keptOf(run);
      open.clear(run);
      if (!kept || run.kind !== 'run') return;
      const transformRun = transformRunOf(run);
      const overLimit = [...summary.judged.values()].some((list) => list.some((f) => f.code === 'frame-over-limit'));
      if (kept.skip) { notJudged(transformRun, kept.skip.kind, kept.skip.reason); return; }
      if (!run.response) { notJudged(transformRun, 'notStream', 'the upstream gave no HTTP response'); return; }
      if (overLimit) { notJudged(transformRun, 'overLimit', 'an event was over the tap\'s --max-frame-bytes and was not parsed, so the transformer\'s input would lack it'); return; }
      if (summary.ending === 'stopped' || closed) { notJudged(transformRun, 'ended', 'the tap stopped during the run'); return; }
      if (kept.frames.length === 0) { notJudged(transformRun, 'notStream', 'the stream had no event to transform'); return; }
      if (pending.size >= maxPending) { notJudged(transformRun, 'busy', `${maxPending} transforms were already running (maxPending)`); return; }
      const done = transform(run, transformRun, kept, summary.ending)
        .catch((error: unknown) => notJudged(transformRun, 'error', `the transform could not run: ${(error as Error)?.message ?? String(error)}`))
        .finally(() => { pending.delete(run.seq); });
      pending.set(run.seq, { transformRun, done });
    },
    pending: () => pending.size,
    stats: () => ({ ...stats, notJudged: { ...stats.notJudged }, pending: pending.size }),
    async close() {
      closed = true;
      if (pending.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), closeTimeoutMs); });
        await Promise.race([Promise.allSettled([...pending.values()].map((p) => p.done)), timedOut]);
        clearTimeout(timer);
      }
      // What is still running is reported not judged; a module's waits end now, a command's process
      // ends at its own bound (harness/child.ts kills every live child when the process exits).
      for (const { transformRun } of pending.values()) notJudged(transformRun, 'closed', `the tap stopped and the transform was still running after ${closeTimeoutMs} ms`);
      abort.abort();
    },
  };
}
