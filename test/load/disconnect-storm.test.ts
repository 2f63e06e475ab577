/**
 * Disconnect storms (seed 004 § Response Lifecycle: "Connection closes when: ... Client
 * disconnects"; docs/gateway.md "The upstream request is aborted at once"). Hundreds of clients
 * hang up at generated points: right after sending, on the headers, or after any number of body
 * bytes, mid-frame included. Every run is armed with the mock's `hold-open` fault (and some with
 * `dribble`), so no upstream stream ever ends by itself: each one the mock opened must be closed by
 * the gateway when its client left, and none may stay open (the mock counts them).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asScenario, sampleRuns, type GenScenario } from '../../harness/arbitraries/index.ts';
import { lawParams } from '../laws/law-runner.ts';
import { bodyOf, planOf } from '../laws/pipeline.ts';
import { gatewayStreams, mockStreams, openStream, runPath, startLoadStack, waitFor, type DropPoint, type LoadStack } from './load-support.ts';
import { runBody } from '../gateway-fixtures.ts';

const clients = 300;
const wave = 100;
const { seed } = lawParams(1);
const runs = sampleRuns(40, seed, {}, 'storm');

type Storm = { run: GenScenario; sessionId: string; drop: DropPoint; faults: Array<Record<string, unknown>> };

const stormArb = fc.record({
  run: fc.nat(),
  point: fc.oneof({ weight: 1, arbitrary: fc.constant<'sent'>('sent') }, { weight: 1, arbitrary: fc.constant<'headers'>('headers') }, { weight: 3, arbitrary: fc.nat() }),
  dribble: fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
});

const storms: Storm[] = fc.sample(stormArb, { seed, numRuns: clients }).map((g, i) => {
  const run = runs[g.run % runs.length] as GenScenario;
  const total = bodyOf(planOf(run)).length;
  const drop: DropPoint = typeof g.point === 'number' ? (total > 0 ? { when: 'bytes', bytes: 1 + (g.point % total) } : { when: 'headers' }) : { when: g.point };
  const faults = [{ name: 'hold-open' }, ...(g.dribble ? [{ name: 'dribble', bytesPerChunk: g.dribble, intervalMs: 1 }] : [])];
  return { run, sessionId: `s-storm-${i}`, drop, faults };
});

let stack: LoadStack;
beforeAll(async () => { stack = await startLoadStack(runs); }, 60_000);
afterAll(async () => { await stack?.close(); });

async function arm(storm: Storm): Promise<void> {
  const { run, sessionId, faults } = storm;
  const created = await fetch(`${stack.mock.url}/apps/${run.id}/users/${run.session.userId}/sessions/${sessionId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  expect(created.status).toBe(200);
  const armed = await fetch(`${stack.mock.url}/_mock/arm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId, scenario: run.id, faults }) });
  expect(armed.status).toBe(200);
}

describe(`disconnect storms leave no upstream stream open (${clients} clients, fast-check seed ${seed})`, () => {
  it('every client that hangs up, at whatever point, makes the gateway close its upstream stream', async () => {
    for (let i = 0; i < storms.length; i += 50) await Promise.all(storms.slice(i, i + 50).map(arm));
    const mockBefore = await mockStreams(stack.mock.url);
    const gatewayBefore = await gatewayStreams(stack.gateway.url);

    for (let i = 0; i < storms.length; i += wave) {
      const batch = storms.slice(i, i + wave).map((s) => openStream(`${stack.gateway.url}${runPath(s.run)}`, JSON.stringify(runBody(asScenario(s.run), { sessionId: s.sessionId })), { drop: s.drop }));
      const results = await Promise.all(batch.map((b) => b.done));
      // A held-open stream never ends by itself: every client result is its own hang-up.
      for (const r of results) expect(r.complete).toBe(false);
    }

    const gateway = await waitFor(() => gatewayStreams(stack.gateway.url), (g) => g.open === 0);
    const mock = await waitFor(() => mockStreams(stack.mock.url), (m) => m.open === 0);
    const opened = mock.opened - mockBefore.opened;
    const gatewayOpened = gateway.opened - gatewayBefore.opened;
    expect(mock.open).toBe(0);
    expect(gateway.open).toBe(0);
    // Every upstream stream was closed because its client left: none completed, none stayed open.
    expect(mock.closedByClient - mockBefore.closedByClient).toBe(opened);
    expect(mock.completed - mockBefore.completed).toBe(0);
    expect(gateway.closedByClient - gatewayBefore.closedByClient).toBe(gatewayOpened);
    // A client gone before its request reached the mock may leave a gateway upstream that the mock never saw.
    expect(opened).toBeLessThanOrEqual(gatewayOpened);
    // Clients that received body bytes were certainly proxied upstream.
    expect(opened).toBeGreaterThanOrEqual(storms.filter((s) => s.drop.when === 'bytes').length);
  }, 60_000);
});
