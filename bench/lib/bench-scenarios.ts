/**
 * The workloads the benchmarks replay. The corpus scenarios are short (1 to 16 events), so the
 * long and paced streams are built here as ordinary scenarios (schema-valid, loaded by the mock
 * like any other): a benchmark measures the mock serving data, not a private fast path.
 *
 * They are written to a temporary folder with a copy of the corpus scenarios the benchmarks name,
 * and the mock is started on that folder with `--scenarios`.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultScenariosDir, loadScenarioFile } from '../../scenarios/loader.ts';
import type { Scenario } from '../../schemas/types.ts';

/** Corpus scenarios the benchmarks replay as they are. */
export const cedarCreekId = 'cedar_creek_briefing';
export const cedarCreekStreamingId = 'cedar_creek_briefing_streaming';

/** The one session every benchmark run uses (the mock needs it to exist). */
export const benchSession = { userId: 'bench-user', sessionId: 'bench-session' } as const;

export type StreamShape = { id: string; chunks: number; chunkDelayMs: number; words?: number };

/**
 * adk-js streaming renders `chunks` partial events and one aggregated final (adk-wire-format §5b),
 * so a shape of n chunks is n + 1 events.
 */
export function streamScenario(shape: StreamShape): Scenario {
  if (!/^[a-z0-9_]+$/.test(shape.id)) throw new TypeError(`streamScenario: id must match [a-z0-9_]+, got '${shape.id}'`);
  if (!Number.isInteger(shape.chunks) || shape.chunks < 1) throw new RangeError(`streamScenario: chunks must be a positive integer, got ${shape.chunks}`);
  const words = shape.words ?? 6;
  const chunks = Array.from({ length: shape.chunks }, (_, i) => `${Array.from({ length: words }, (_w, w) => `word${i}-${w}`).join(' ')} `);
  const text = chunks.join('');
  return {
    $schema: '../schemas/scenario.schema.json',
    id: shape.id,
    title: `a streamed answer of ${shape.chunks} chunks and its aggregated final (benchmark workload)`,
    description: 'Built by bench/lib/bench-scenarios.ts: one adk-js streaming model turn, every chunk a partial event.',
    family: 'streaming',
    tags: ['benchmark'],
    specRefs: [{ doc: 'adk-wire-format', section: '§5b' }],
    dialect: 'adk-js',
    replays: 'adk-js 2.0.0 streaming: partial chunks, then the aggregated final repeating the text.',
    session: { userId: benchSession.userId, sessionId: benchSession.sessionId },
    request: { message: 'benchmark', streaming: true },
    upstream: { kind: 'run', steps: [{ model: { author: 'assistant', text, chunks, chunkDelayMs: shape.chunkDelayMs } }] },
    expect: { status: 200, outcome: 'complete', frames: shape.chunks + 1, completionPoint: shape.chunks },
  } as unknown as Scenario;
}

/** The workloads: a long stream for throughput, a paced one for latency, a held one for concurrency. */
export const workloads = {
  /** 100 events back to back (~13 KB): throughput. */
  long: { id: 'bench_stream_100', chunks: 99, chunkDelayMs: 0 },
  /** 10 events 10 ms apart: per-event latency. */
  paced: { id: 'bench_paced_10', chunks: 9, chunkDelayMs: 10 },
  /** 10 events over ~2.7 s: streams that stay open long enough to all be open at once. */
  held: { id: 'bench_held_10', chunks: 9, chunkDelayMs: 300 },
  /** 5 events back to back: a short run, where the per-request cost (routing, session, render) dominates. */
  short: { id: 'bench_short_5', chunks: 4, chunkDelayMs: 0 },
} as const satisfies Record<string, StreamShape>;

export type ScenarioFolder = { dir: string; ids: string[]; scenarios: Scenario[]; remove: () => void };

/** A temporary scenario folder with the workloads and the named corpus scenarios. */
export function writeScenarioFolder(shapes: readonly StreamShape[] = Object.values(workloads), corpusIds: readonly string[] = [cedarCreekId, cedarCreekStreamingId]): ScenarioFolder {
  const dir = mkdtempSync(join(tmpdir(), 'adk-bench-scenarios-'));
  const scenarios: Scenario[] = [];
  for (const shape of shapes) {
    const scenario = streamScenario(shape);
    writeFileSync(join(dir, `${shape.id}.json`), JSON.stringify(scenario, null, 2));
    scenarios.push(scenario);
  }
  for (const id of corpusIds) {
    const from = join(defaultScenariosDir, `${id}.json`);
    copyFileSync(from, join(dir, `${id}.json`));
    scenarios.push(loadScenarioFile(from));
  }
  return { dir, ids: scenarios.map((s) => s.id), scenarios, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The `/run_sse` body a client sends for `appName` on the bench session. */
export function runBody(appName: string, streaming = true): string {
  return JSON.stringify({ appName, userId: benchSession.userId, sessionId: benchSession.sessionId, newMessage: { role: 'user', parts: [{ text: 'benchmark' }] }, streaming });
}
