/**
 * `createTapCore(config)`: the platform-free tap. The HTTP shell (tap/server.ts) opens a run per
 * request and feeds it what it has already forwarded; the core judges (tap/run-judge.ts) and tells
 * every observer (tap/types.ts TapObserver). An observer that throws is reported through
 * `onObserverError` and skipped for that call only: it never stops the bytes or the other observers.
 */
import { createRunJudge, type RunJudge } from './run-judge.ts';
import { createOpenList } from './run-state.ts';
import { defaultLimits, type Judge, type RunEnding, type TapLimits, type TapObserver, type TapRun, type TapRunSummary, type UpstreamRole } from './types.ts';

export type TapCoreConfig = {
  role: UpstreamRole;
  limits?: Partial<TapLimits>;
  observers?: readonly TapObserver[];
  judges?: readonly Judge[];
  onObserverError?: (callback: string, error: unknown) => void;
  /** The run names' stem (default `tap-run`: `tap-run-0001`); two taps in one report (`--pair`) need two. */
  runNamePrefix?: string;
};

export type RunHandle = {
  run: TapRun;
  requestBody: (body: Uint8Array, truncated: boolean) => void;
  responseHead: (status: number, headers: ReadonlyArray<readonly [string, string]>) => void;
  chunk: (bytes: Uint8Array, atMs: number) => void;
  /** Idempotent: the first ending counts. */
  end: (ending: RunEnding, error?: string) => TapRunSummary | undefined;
};

export type TapCore = {
  limits: TapLimits;
  role: UpstreamRole;
  startRun: (request: { method: string; url: string; headers: ReadonlyArray<readonly [string, string]> }) => RunHandle;
  addObserver: (observer: TapObserver) => void;
  /** Runs still open. */
  openRuns: () => number;
  /** End every open run as `stopped`, then close the observers (reports are written here). */
  stop: () => Promise<void>;
};

const runPaths = new Set(['/run_sse', '/run_sse_enhanced']);

export function createTapCore(config: TapCoreConfig): TapCore {
  const limits: TapLimits = { ...defaultLimits, ...config.limits };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value <= 0) throw new TypeError(`createTapCore: limits.${name} must be a positive integer, got ${String(value)}`);
  }
  const observers: TapObserver[] = [...(config.observers ?? [])];
  // Not a Set: a Set churned by every run made the tap promote each run's state (tap/run-state.ts).
  const open = createOpenList<RunHandle>();
  let seq = 0;
  // Runs are numbered among runs: a session created before the first run must not make it run 0002 (issue 31 §4).
  const ordinals = { run: 0, other: 0 };
  const prefix = config.runNamePrefix ?? 'tap-run';
  const otherPrefix = `${prefix.replace(/-run$/, '')}-request`;

  function tell<K extends keyof TapObserver>(callback: K, ...args: Parameters<NonNullable<TapObserver[K]>>): void {
    for (const o of observers) {
      const fn = o[callback] as ((...a: unknown[]) => unknown) | undefined;
      if (!fn) continue;
      try { fn.apply(o, args); } catch (error) { config.onObserverError?.(callback, error); }
    }
  }

  function startRun(request: { method: string; url: string; headers: ReadonlyArray<readonly [string, string]> }): RunHandle {
    seq++;
    const path = request.url.split('?')[0] ?? '';
    const kind = request.method === 'POST' && runPaths.has(path) ? 'run' : 'other';
    const ordinal = ++ordinals[kind];
    const run: TapRun = {
      seq,
      ordinal,
      name: `${kind === 'run' ? prefix : otherPrefix}-${String(ordinal).padStart(4, '0')}`,
      kind,
      method: request.method,
      url: request.url,
      startedAt: new Date().toISOString(),
      requestHeaders: request.headers,
      dialect: 'unknown',
    };
    const judge: RunJudge = createRunJudge({
      run, role: config.role, limits, judges: config.judges ?? [],
      // The two calls made per event go to the observers directly: tell()'s rest arguments are an array per call.
      onFrame: (frame, findings) => {
        for (const o of observers) {
          if (o.onFrame === undefined) continue;
          try { o.onFrame(run, frame, findings); } catch (error) { config.onObserverError?.('onFrame', error); }
        }
      },
      onFindings: (findings) => tell('onFindings', run, findings),
    });
    let summary: TapRunSummary | undefined;
    const handle: RunHandle = {
      run,
      requestBody(body, truncated) {
        if (summary) return;
        judge.requestBody(body, truncated);
        tell('onRequestBody', run, body, truncated);
      },
      responseHead(status, headers) {
        if (summary) return;
        judge.responseHead(status, headers);
        tell('onResponseHead', run);
      },
      chunk(bytes, atMs) {
        if (summary) return;
        for (const o of observers) {
          if (o.onChunk === undefined) continue;
          try { o.onChunk(run, bytes, atMs); } catch (error) { config.onObserverError?.('onChunk', error); }
        }
        judge.chunk(bytes);
      },
      end(ending, error) {
        if (summary) return undefined;
        summary = judge.end(ending, error);
        open.remove(slot);
        tell('onRunEnd', run, summary);
        return summary;
      },
    };
    const slot = open.add(handle);
    tell('onRunStart', run);
    return handle;
  }

  async function stop(): Promise<void> {
    for (const handle of open.items()) handle.end('stopped');
    for (const o of observers) {
      try { await o.close?.(); } catch (error) { config.onObserverError?.('close', error); }
    }
  }

  return { limits, role: config.role, startRun, addObserver: (o) => { observers.push(o); }, openRuns: () => open.size(), stop };
}
