/**
 * Upstream resets at generated points (seed 004 § Error Handling, STREAM_ERROR; docs/gateway.md
 * "Error frames"). Each generated run is armed on the mock with `cut-after-frame` or
 * `cut-mid-frame` at a generated frame and byte (POST /_mock/arm), so the mock destroys the
 * connection there. Each client of the gateway must receive every byte the mock sent before the
 * reset, unchanged, and then exactly one terminal STREAM_ERROR frame, in an event of its own.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../../core/sse.ts';
import { frameRanges } from '../../mock-adk/core/timeline.ts';
import { asScenario, sampleRuns, type GenScenario } from '../../harness/arbitraries/index.ts';
import { runBody } from '../gateway-fixtures.ts';
import { lawParams } from '../laws/law-runner.ts';
import { bodyOf, planOf } from '../laws/pipeline.ts';
import { gatewayStreams, mockStreams, openStream, runPath, startLoadStack, waitFor, type LoadStack } from './load-support.ts';

const resets = 200;
const { seed } = lawParams(1);
// A run to cut needs a frame; `split-at` offsets may fall past a cut body, which the fault engine refuses.
const cuttable = (s: GenScenario): boolean => s.expect.frames > 0 && !(s.faults ?? []).some((f) => f.name === 'split-at');
const runs = sampleRuns(resets * 2, seed, {}, 'reset').filter(cuttable).slice(0, resets);

type Cut = { name: 'cut-after-frame'; frame: number } | { name: 'cut-mid-frame'; frame: number; bytes: number };
type Case = { run: GenScenario; sessionId: string; cut: Cut };

const cutArb = fc.record({ midFrame: fc.boolean(), frame: fc.nat(), byte: fc.nat() });

const cases: Case[] = fc.sample(cutArb, { seed, numRuns: runs.length }).map((g, i) => {
  const run = runs[i] as GenScenario;
  const ranges = frameRanges(bodyOf(planOf(run)));
  const frame = g.frame % ranges.length;
  const [start, end] = ranges[frame] as [number, number];
  const cut: Cut = g.midFrame ? { name: 'cut-mid-frame', frame, bytes: 1 + (g.byte % (end - start - 1)) } : { name: 'cut-after-frame', frame };
  return { run, sessionId: `s-reset-${i}`, cut };
});

let stack: LoadStack;
beforeAll(async () => { stack = await startLoadStack(runs); }, 60_000);
afterAll(async () => { await stack?.close(); });

const isStreamError = (data: string): boolean => {
  try { return (JSON.parse(data) as { error_code?: unknown }).error_code === 'STREAM_ERROR'; } catch { return false; }
};

describe(`upstream resets at generated points (${runs.length} runs, fast-check seed ${seed})`, () => {
  it('each client gets every byte sent before the reset, then exactly one terminal STREAM_ERROR frame', async () => {
    expect(runs).toHaveLength(resets);
    for (const c of cases) {
      const created = await fetch(`${stack.mock.url}/apps/${c.run.id}/users/${c.run.session.userId}/sessions/${c.sessionId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const armed = await fetch(`${stack.mock.url}/_mock/arm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: c.sessionId, scenario: c.run.id, dialect: c.run.dialect, faults: [c.cut] }) });
      expect([created.status, armed.status]).toEqual([200, 200]);
    }
    const mockBefore = await mockStreams(stack.mock.url);
    const gatewayBefore = await gatewayStreams(stack.gateway.url);

    let delivered = 0;
    for (let i = 0; i < cases.length; i += 50) {
      const batch = cases.slice(i, i + 50);
      const results = await Promise.all(batch.map((c) => openStream(`${stack.gateway.url}${runPath(c.run)}`, JSON.stringify(runBody(asScenario(c.run), { sessionId: c.sessionId }))).done));
      results.forEach((r, j) => {
        const c = batch[j] as Case;
        const cutPlan = planOf(c.run, c.sessionId, [c.cut]);
        const sent = bodyOf(cutPlan);
        const where = `${c.run.id} ${JSON.stringify(c.cut)}`;
        expect({ where, status: r.status, complete: r.complete }).toEqual({ where, status: 200, complete: true });
        // Every byte before the reset, unchanged.
        expect(r.body.subarray(0, sent.length).equals(sent), where).toBe(true);
        const frames = readSse(r.body).frames.map((f) => f.data);
        const before = cutPlan.frames.map((f) => f.data);
        expect(frames.slice(0, before.length), where).toEqual(before);
        delivered += before.length;
        // Then the cut event's own bytes (dispatched as one partial event when they hold a data line), then the one error frame.
        expect(frames.length - before.length, where).toBeGreaterThanOrEqual(1);
        expect(frames.length - before.length, where).toBeLessThanOrEqual(c.cut.name === 'cut-mid-frame' ? 2 : 1);
        expect(frames.filter(isStreamError), where).toHaveLength(1);
        expect(isStreamError(frames.at(-1) ?? ''), where).toBe(true);
        expect(r.body.subarray(r.body.length - 2).toString(), where).toBe('\n\n');
      });
    }
    expect(delivered).toBeGreaterThan(0);

    const gateway = await waitFor(() => gatewayStreams(stack.gateway.url), (g) => g.open === 0);
    expect(gateway.open).toBe(0);
    expect(gateway.streamErrors - gatewayBefore.streamErrors).toBe(cases.length);
    const mock = await waitFor(() => mockStreams(stack.mock.url), (m) => m.open === 0);
    expect(mock.open).toBe(0);
    expect(mock.opened - mockBefore.opened).toBe(cases.length);
  }, 60_000);
});
