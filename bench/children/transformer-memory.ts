/**
 * Memory of one transformer fed one ever longer run. Prints one JSON line per checkpoint:
 * {"events": N, "rssMB": ..., "heapMB": ...}, measured after a full GC (run with --expose-gc).
 *
 *   node --expose-gc --import tsx bench/children/transformer-memory.ts transformer|parse N1,N2,...
 *
 * The transformer runs as a streaming consumer runs it (keepEvents: false, every event taken by
 * onEvent, as `adk-conformance transform` does). `parse` is the baseline: the same input parsed
 * and dropped, so the difference is what the transformer keeps. The input is Cedar Creek's streaming run (partial chunks, calls, responses,
 * answers) repeated with ids unique per copy, as one run: a stream of any length.
 */
import { createTransformer } from '../../reference-impl/transformer/index.ts';
import { cedarCreekStreamingId } from '../lib/bench-scenarios.ts';
import { repeatedLines, runFrames } from '../lib/pipeline-inputs.ts';

const mode = process.argv[2];
const checkpoints = (process.argv[3] ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b);
const gc = (globalThis as { gc?: () => void }).gc;
if ((mode !== 'transformer' && mode !== 'parse') || checkpoints.length === 0 || !gc) {
  process.stderr.write('usage: node --expose-gc --import tsx bench/children/transformer-memory.ts transformer|parse N1,N2,...\n');
  process.exit(2);
}

const frames = runFrames(cedarCreekStreamingId);
const last = checkpoints[checkpoints.length - 1] as number;
let briefings = 0;
const transformer = mode === 'transformer' ? createTransformer({ sessionId: 'bench-session', keepEvents: false, onEvent: () => { briefings++; } }) : undefined;
let kept = 0;
let fed = 0;
let next = 0;
const report = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ events: fed, briefings, rssMB: usage.rss / 1048576, heapMB: usage.heapUsed / 1048576 })}\n`);
};
for (const line of repeatedLines(frames, Math.ceil(last / frames.length))) {
  if (transformer) transformer.pushData(line);
  else kept += (JSON.parse(line) as unknown) === null ? 0 : 1;
  fed++;
  if (fed === checkpoints[next]) { report(); next++; }
  if (fed >= last) break;
}
if (kept < 0) process.stdout.write('\n');
