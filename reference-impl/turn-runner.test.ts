import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { encodeSse } from '../core/sse.ts';
import { runTurn } from './turn-runner.ts';
import type { BlockStreamEvent } from './block-normalizer.ts';
import { validate } from '../schemas/registry.ts';

// A scripted Anthropic upstream for the paths no scenario can render (HTTP errors, cut streams,
// a model that never stops). The index_reuse_* scenarios on the real mock are in test/normalize-mock.test.ts.
type Script = {
  /** The events of each /v1/messages call, by the count of assistant messages in the request. */
  calls: Array<unknown[] | { status: number; body: string } | { holdOpenAfter: unknown[] }>;
  tools?: Record<string, { status: number; body: unknown }>;
};

let app: FastifyInstance;
let base = '';
let script: Script = { calls: [] };
const requests: Array<{ url: string; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  app = Fastify();
  app.post('/v1/messages', async (request, reply) => {
    const body = request.body as { messages: Array<{ role: string }> };
    requests.push({ url: request.url, body: body as Record<string, unknown> });
    const call = script.calls[Math.min(body.messages.filter((m) => m.role === 'assistant').length, script.calls.length - 1)];
    if (call === undefined) return reply.code(500).send({ error: 'no script' });
    if ('status' in call) return reply.code(call.status).type('application/json').send(call.body);
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    const events = Array.isArray(call) ? call : call.holdOpenAfter;
    for (const e of events) reply.raw.write(encodeSse({ event: (e as { type: string }).type, data: JSON.stringify(e) }));
    if (Array.isArray(call)) reply.raw.end();
  });
  app.post('/_mock/anthropic/:model/tools/:id', async (request, reply) => {
    requests.push({ url: request.url, body: request.body as Record<string, unknown> });
    const tool = script.tools?.[(request.params as { id: string }).id] ?? { status: 200, body: { content: 'ok' } };
    return reply.code(tool.status).send(tool.body);
  });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => { await app.close(); });
beforeEach(() => { requests.length = 0; });

const msgStart = (id: string) => ({ type: 'message_start', message: { id, type: 'message', role: 'assistant', content: [], model: 'm', stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
const text = (index: number, t: string) => [
  { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } },
  { type: 'content_block_stop', index },
];
const toolUse = (index: number, id: string, json: string) => [
  { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: 'get_fire', input: {} } },
  { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json } },
  { type: 'content_block_stop', index },
];
const end = (reason: string) => [{ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 3 } }, { type: 'message_stop' }];

async function turn(extra: Partial<Parameters<typeof runTurn>[0]> = {}) {
  const events: BlockStreamEvent[] = [];
  const outcome = await runTurn({ upstreamUrl: base, scenarioModel: 'fake_turn', onEvent: (e) => events.push(e), ...extra });
  // The runner's own errors (upstream_*, max_calls_exceeded) are block-stream events too.
  for (const e of events) expect(validate('block-stream-event', e).errors).toEqual([]);
  return { outcome, events, types: events.map((e) => e.event_type) };
}

describe('the turn loop', () => {
  test('a tool_use stop runs the tool and calls the model again with the assistant message and the result', async () => {
    script = {
      calls: [
        [msgStart('m1'), { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }, { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }, { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'SIG' } }, { type: 'content_block_stop', index: 0 }, ...toolUse(1, 'toolu_1', '{"fire":"cedar"}'), ...end('tool_use')],
        [msgStart('m2'), ...text(0, 'done'), ...end('end_turn')],
      ],
      tools: { toolu_1: { status: 200, body: { content: [{ type: 'text', text: '42 acres' }] } } },
    };
    const { outcome, events } = await turn({ message: 'brief me' });
    expect(outcome).toEqual({ outcome: 'complete', calls: 2, stopReason: 'end_turn' });
    expect(events.filter((e) => typeof e.data.index === 'number').map((e) => [e.event_type, e.data.index])).toEqual([
      ['text_block_start', 0], ['text_delta', 0], ['content_block_stop', 0],
      ['tool_use_start', 1], ['tool_use_input_delta', 1], ['content_block_stop', 1], ['tool_use_input_complete', 1],
      ['tool_result', 1],
      ['text_block_start', 2], ['text_delta', 2], ['content_block_stop', 2],
    ]);
    expect(events.at(-1)?.event_type).toBe('stream_end');
    expect(requests.map((r) => r.url)).toEqual(['/v1/messages', '/_mock/anthropic/fake_turn/tools/toolu_1', '/v1/messages']);
    expect(requests[0]?.body).toEqual({ model: 'fake_turn', max_tokens: 4096, stream: true, messages: [{ role: 'user', content: 'brief me' }] });
    expect(requests[1]?.body).toEqual({ name: 'get_fire', input: { fire: 'cedar' } });
    expect(requests[2]?.body.messages).toEqual([
      { role: 'user', content: 'brief me' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 'SIG' }, { type: 'tool_use', id: 'toolu_1', name: 'get_fire', input: { fire: 'cedar' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '42 acres' }] }] },
    ]);
  });

  test('a failing tool becomes a tool_execution_error on the tool block and an is_error result upstream', async () => {
    script = { calls: [[msgStart('m1'), ...toolUse(0, 'toolu_bad', '{}'), ...end('tool_use')], [msgStart('m2'), ...text(0, 'sorry'), ...end('end_turn')]], tools: { toolu_bad: { status: 500, body: { error: 'fixture missing' } } } };
    const { events } = await turn();
    expect(events.find((e) => e.event_type === 'tool_execution_error')?.data).toEqual({ index: 0, tool_use_id: 'toolu_bad', error: 'fixture missing' });
    expect(requests[2]?.body.messages).toContainEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_bad', content: 'fixture missing', is_error: true }] });
  });

  test('a 200 answer flagged isError is a tool_execution_error carrying the content', async () => {
    script = { calls: [[msgStart('m1'), ...toolUse(0, 'toolu_soft', '{}'), ...end('tool_use')], [msgStart('m2'), ...end('end_turn')]], tools: { toolu_soft: { status: 200, body: { content: 'no such fire', isError: true } } } };
    const { events } = await turn();
    expect(events.find((e) => e.event_type === 'tool_execution_error')?.data).toEqual({ index: 0, tool_use_id: 'toolu_soft', error: 'no such fire' });
  });

  test('a tool backend answer without content or error is a tool_execution_error naming the status', async () => {
    script = { calls: [[msgStart('m1'), ...toolUse(0, 'toolu_x', '{}'), ...end('tool_use')], [msgStart('m2'), ...end('end_turn')]], tools: { toolu_x: { status: 404, body: { nope: true } } } };
    const { events } = await turn();
    expect(events.find((e) => e.event_type === 'tool_execution_error')?.data.error).toMatch(/answered 404 without an error field/);
  });
});

describe('upstream failures end the turn with an error event', () => {
  test('an HTTP error from /v1/messages is an upstream_http_error with the status and body', async () => {
    script = { calls: [{ status: 529, body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' }] };
    const { outcome, events, types } = await turn();
    expect(outcome.outcome).toBe('error');
    expect(events[0]?.data).toMatchObject({ reason: 'upstream_http_error', status: 529 });
    expect(types).toEqual(['error', 'stream_end']);
  });

  test('a stream that ends before message_stop is an upstream_stream_cut', async () => {
    script = { calls: [[msgStart('m1'), ...text(0, 'half')]] };
    const { outcome, types, events } = await turn();
    expect(outcome.outcome).toBe('error');
    expect(events.find((e) => e.event_type === 'error')?.data.reason).toBe('upstream_stream_cut');
    expect(types.at(-1)).toBe('stream_end');
  });

  test('an in-stream Anthropic error event stops the turn', async () => {
    script = { calls: [[msgStart('m1'), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]] };
    const { outcome, events } = await turn();
    expect(outcome.outcome).toBe('error');
    expect(events.find((e) => e.event_type === 'error')?.data.reason).toBe('upstream_error');
  });

  test('a model that keeps asking for tools is cut at maxCalls', async () => {
    script = { calls: [[msgStart('m'), ...toolUse(0, 'toolu_loop', '{}'), ...end('tool_use')]] };
    // Each call reuses the same tool id, which the normaliser reports; the cut is what is checked here.
    const { outcome, events } = await turn({ maxCalls: 3 });
    expect(outcome).toMatchObject({ outcome: 'error', calls: 3 });
    expect(events.find((e) => e.data.reason === 'max_calls_exceeded')?.data.calls).toBe(3);
  });

  test('an unreachable upstream is an upstream_unreachable error', async () => {
    const closed = Fastify();
    const url = await closed.listen({ host: '127.0.0.1', port: 0 });
    await closed.close();
    const { outcome, events } = await turn({ upstreamUrl: url });
    expect(outcome.outcome).toBe('error');
    expect(events[0]?.data.reason).toBe('upstream_unreachable');
  });

  test('an abort mid-stream resolves as aborted without stream_end', async () => {
    script = { calls: [{ holdOpenAfter: [msgStart('m1'), { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }] }] };
    const controller = new AbortController();
    const events: BlockStreamEvent[] = [];
    const outcome = await runTurn({
      upstreamUrl: base, scenarioModel: 'fake_turn', signal: controller.signal,
      onEvent: (e) => { events.push(e); if (e.event_type === 'text_block_start') controller.abort(); },
    });
    expect(outcome.outcome).toBe('aborted');
    expect(events.map((e) => e.event_type)).toEqual(['message_start', 'text_block_start']);
  });

  test('a bad upstreamUrl is a TypeError saying what is expected', async () => {
    await expect(runTurn({ upstreamUrl: '127.0.0.1:80', scenarioModel: 'x', onEvent: () => undefined })).rejects.toThrow(/upstreamUrl must be an http\(s\) URL/);
  });
});
