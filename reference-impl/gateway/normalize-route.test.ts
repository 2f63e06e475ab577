import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { encodeSse, readSse } from '../../core/sse.ts';
import normalizeRoute from './normalize-route.ts';

// A one-message Anthropic upstream, and one that never finishes, to watch the route abort it.
let upstream: FastifyInstance;
let gateway: FastifyInstance;
let gatewayUrl = '';
let upstreamClosedByClient = 0;

const events = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'm' } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Cedar Creek' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null } },
  { type: 'message_stop' },
];

beforeAll(async () => {
  // The runner's fetch keeps its upstream connections alive; closing the test server cuts them.
  upstream = Fastify({ forceCloseConnections: true });
  upstream.post('/v1/messages', async (request, reply) => {
    const { model } = request.body as { model: string };
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    if (model === 'hang') {
      reply.raw.write(encodeSse({ data: JSON.stringify(events[0]) }));
      reply.raw.on('close', () => { upstreamClosedByClient++; });
      return;
    }
    for (const e of events) reply.raw.write(encodeSse({ event: (e as { type: string }).type, data: JSON.stringify(e) }));
    reply.raw.end();
  });
  const upstreamUrl = await upstream.listen({ host: '127.0.0.1', port: 0 });
  gateway = Fastify();
  await gateway.register(normalizeRoute, { upstreamUrl });
  gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('POST /normalize/turn', () => {
  test('streams the normalised events of the turn as SSE data frames', async () => {
    const res = await fetch(`${gatewayUrl}/normalize/turn`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'one_message' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const { frames, issues } = readSse(new Uint8Array(await res.arrayBuffer()));
    expect(issues).toEqual([]);
    expect(frames.every((f) => f.event === undefined)).toBe(true);
    expect(frames.map((f) => JSON.parse(f.data))).toEqual([
      { event_type: 'message_start', data: { message_id: 'msg_1', model: 'm' } },
      { event_type: 'text_block_start', data: { index: 0, block_type: 'text' } },
      { event_type: 'text_delta', data: { index: 0, text: 'Cedar Creek' } },
      { event_type: 'content_block_stop', data: { index: 0 } },
      { event_type: 'message_delta', data: { stop_reason: 'end_turn', stop_sequence: null } },
      { event_type: 'llm_call_completed', data: { message_id: 'msg_1', stop_reason: 'end_turn' } },
      { event_type: 'stream_end', data: {} },
    ]);
  });

  test('a body without a model is refused with 422 naming the field', async () => {
    const res = await gateway.inject({ method: 'POST', url: '/normalize/turn', payload: { message: 'hi' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'GW_INVALID_REQUEST', issues: [{ path: '/model' }] });
  });

  test('a client that leaves aborts the upstream call', async () => {
    const controller = new AbortController();
    const res = await fetch(`${gatewayUrl}/normalize/turn`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'hang' }), signal: controller.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"message_start"');
    controller.abort();
    // The upstream sees its socket close once the route's runner aborts; poll for it without a clock assertion.
    while (upstreamClosedByClient === 0) await new Promise((r) => setImmediate(r));
    expect(upstreamClosedByClient).toBe(1);
  });

  test('registering without an upstreamUrl is a TypeError saying how to register it', async () => {
    const app = Fastify();
    await expect(app.register(normalizeRoute, {} as never).ready()).rejects.toThrow(/register it with \{upstreamUrl/);
    await app.close();
  });
});
