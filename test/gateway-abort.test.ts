/**
 * Seed 004 § Response Lifecycle: "Connection closes when: ... Client disconnects". A client that
 * leaves makes the gateway abort its upstream request at once (GW-ABORT-001), counted on both
 * sides; concurrent streams do not affect each other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../core/sse.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Scenario } from '../schemas/types.ts';
import { createSession, getJson, rawRequest, runBody, startStack, until, type GatewayStreams, type MockStreams, type Stack } from './gateway-fixtures.ts';

const { scenarios } = loadScenarios();
const scenario = (id: string): Scenario => {
  const found = scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`the corpus has no ${id} scenario`);
  return found;
};

let stack: Stack;
beforeAll(async () => { stack = await startStack(); });
afterAll(async () => { await stack.close(); });

/** Open a held-open run through the gateway and read until its first frame arrived. */
async function openHeld(sessionId: string): Promise<AbortController> {
  const s = scenario('missing_done_hold_open');
  await createSession(stack.mock.url, s.id, s.session.userId, sessionId);
  const controller = new AbortController();
  const res = await fetch(`${stack.gateway.url}/run_sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(runBody(s, { sessionId })), signal: controller.signal });
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no body');
  let received = Buffer.alloc(0);
  while (readSse(received).frames.length === 0) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the held-open stream ended');
    received = Buffer.concat([received, Buffer.from(value)]);
  }
  return controller;
}

const mockStreams = () => getJson<MockStreams>(`${stack.mock.url}/_mock/streams`);
const gatewayStreams = async () => (await getJson<GatewayStreams>(`${stack.gateway.url}/_gateway/stats`)).streams;

describe('client disconnect (GW-ABORT-001)', () => {
  it('closes the upstream stream when the client leaves', async () => {
    const before = await mockStreams();
    const client = await openHeld('s-abort-1');
    expect((await mockStreams()).open).toBe(before.open + 1);
    expect((await gatewayStreams()).open).toBe(1);
    client.abort();
    const after = await until(mockStreams, (m) => m.open === before.open);
    expect(after).toMatchObject({ open: before.open, closedByClient: before.closedByClient + 1 });
    const gateway = await until(gatewayStreams, (g) => g.open === 0);
    expect(gateway).toMatchObject({ open: 0, closedByClient: 1 });
  });

  it('keeps concurrent streams independent: one leaving ends only its own upstream', async () => {
    const before = await mockStreams();
    const gwBefore = await gatewayStreams();
    const first = await openHeld('s-abort-2');
    const second = await openHeld('s-abort-3');
    expect((await mockStreams()).open).toBe(before.open + 2);

    // A complete run in between is untouched by the two held ones.
    const plain = scenario('plain_text');
    await createSession(stack.mock.url, plain.id, plain.session.userId, 's-abort-plain');
    const body = JSON.stringify(runBody(plain, { sessionId: 's-abort-plain' }));
    const direct = await rawRequest(`${stack.mock.url}/run_sse`, { body });
    const through = await rawRequest(`${stack.gateway.url}/run_sse`, { body });
    expect(through.body.equals(direct.body)).toBe(true);

    first.abort();
    const oneLeft = await until(mockStreams, (m) => m.open === before.open + 1);
    expect(oneLeft.open).toBe(before.open + 1);
    expect((await gatewayStreams()).open).toBe(1);
    second.abort();
    const none = await until(gatewayStreams, (g) => g.open === 0);
    expect(none).toMatchObject({ open: 0, closedByClient: gwBefore.closedByClient + 2 });
    expect((await until(mockStreams, (m) => m.open === before.open)).open).toBe(before.open);
  });
});
