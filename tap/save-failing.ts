/**
 * `tap --save-failing DIR`: an observer that keeps each open run's bytes (up to `maxRunBytes`) and,
 * when the run failed, writes it as a scenario with the recorder's own builder (recorder/scenario.ts,
 * the same code as `mock --record-from`): credential headers dropped, secrets redacted, the bytes,
 * timing, status and headers the upstream sent. `mock --scenarios DIR` then replays it, and the
 * same run through the tap gives the same findings. A passing run's bytes are dropped at its end.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exchangeOf } from '../mock-adk/server/record-proxy.ts';
import { safeOrigin, userRedactions } from '../recorder/redact.ts';
import { buildScenario } from '../recorder/scenario.ts';
import type { CapturedChunk } from '../recorder/types.ts';
import type { TapObserver, TapRun } from './types.ts';
import { createRunState } from './run-state.ts';

export type SaveFailingOptions = {
  dir: string;
  upstream: string;
  /** Bytes kept per open run; a longer failing run is reported as not saved. */
  maxRunBytes?: number;
  /** The most scenario files one tap session writes. */
  maxFiles?: number;
  /** `--redact` patterns added to the recorder's default list. */
  redact?: readonly string[];
  onSaved?: (event: { run: TapRun; file: string } | { run: TapRun; error: string }) => void;
};

type Kept = { body: Buffer[]; bodyBytes: number; chunks: CapturedChunk[]; bytes: number; over: boolean };

export type FailingRunSaver = TapObserver & { fileOf: (run: TapRun) => string | undefined; saved: () => number };

export function createFailingRunSaver(options: SaveFailingOptions): FailingRunSaver {
  const maxRunBytes = options.maxRunBytes ?? 8 * 1024 * 1024;
  const maxFiles = options.maxFiles ?? 200;
  const redactions = userRedactions(options.redact ?? []);
  // Per run on the run itself, not in a Map every run churns (tap/run-state.ts).
  const open = createRunState<Kept>('saved run bytes');
  const files = new Map<number, string>();
  let written = 0;

  const nextId = (run: TapRun, appName: string): string => {
    const stem = `tap_${(appName.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'run').slice(0, 40)}`;
    for (let n = run.ordinal ?? run.seq; ; n++) {
      const id = `${stem}_${String(n).padStart(4, '0')}`;
      if (!existsSync(join(options.dir, `${id}.json`))) return id;
    }
  };

  return {
    onRunStart(run) { if (run.kind === 'run') open.set(run, { body: [], bodyBytes: 0, chunks: [], bytes: 0, over: false }); },
    onRequestBody(run, body, truncated) {
      const kept = open.get(run);
      if (!kept) return;
      kept.body.push(Buffer.from(body));
      kept.bodyBytes += body.length;
      if (truncated) kept.over = true;
    },
    onChunk(run, chunk, atMs) {
      const kept = open.get(run);
      if (!kept || kept.over) return;
      if (kept.bytes + chunk.length > maxRunBytes) { kept.over = true; kept.chunks = []; return; }
      // A copy: the shell's buffer may be reused once it was written.
      kept.chunks.push({ bytes: new Uint8Array(chunk), atMs });
      kept.bytes += chunk.length;
    },
    onRunEnd(run, summary) {
      const kept = open.get(run);
      open.clear(run);
      if (!kept || !summary.failed) return;
      const fail = (error: string) => options.onSaved?.({ run, error });
      if (!run.response) return fail(`${run.name} not saved: the upstream gave no HTTP response, so there is nothing to replay`);
      if (kept.over) return fail(`${run.name} not saved: it is over the ${maxRunBytes}-byte limit a saved run may have`);
      if (written >= maxFiles) return fail(`${run.name} not saved: ${maxFiles} scenarios were already written this session`);
      const path = (run.url.split('?')[0] ?? '') as '/run_sse' | '/run_sse_enhanced';
      const end = summary.ending === 'eof' ? 'eof' : summary.ending === 'upstream-cut' ? 'reset' : 'hold-open';
      try {
        const headers = run.response.headers.map(([n, v]) => [n, v] as [string, string]);
        const exchange = exchangeOf(safeOrigin(options.upstream), path, Buffer.concat(kept.body), new Map(), { status: run.response.status, headers, chunks: kept.chunks, end, endAtMs: summary.durationMs });
        if (!exchange) return fail(`${run.name} not saved: its JSON body has no appName, userId and sessionId to replay it under`);
        const id = nextId(run, exchange.request.appName);
        const result = buildScenario(exchange, { id, redactions, title: `A run the tap judged failing (${[...summary.judged].filter(([, f]) => f.length > 0).map(([r]) => r).join(', ')}), replayed byte for byte` });
        mkdirSync(options.dir, { recursive: true });
        const file = join(options.dir, `${id}.json`);
        writeFileSync(file, `${JSON.stringify(result.scenario, null, 2)}\n`);
        written++;
        files.set(run.seq, file);
        options.onSaved?.({ run, file });
      } catch (error) {
        fail(`${run.name} not saved: ${(error as Error).message}`);
      }
    },
    fileOf: (run) => files.get(run.seq),
    saved: () => written,
  };
}
