/**
 * adk-go 2.0.0 (server/adkrest @0a51e153): encoding/json bytes (content last, nulls, no
 * timestamp, sorted maps, HTML-safe escapes), net/http headers, and the named `event: error`.
 */
import { describe, expect, it } from 'vitest';
import { render } from '../render.ts';
import { bodyText, ctx, events, keys, oneTool, plainText, runScenario } from '../test-scenarios.ts';
import { HTTP_DATE } from '../types.ts';
import { adkGo } from './adk-go.ts';

const D = 'adk-go@2.0.0' as const;
const scenario = (steps: Parameters<typeof runScenario>[0]) => runScenario(steps, { dialect: D });

describe('adk-go framing and headers', () => {
  it('sends the handler headers sorted, then Date and chunked', () => {
    const plan = render(scenario(plainText), ctx(D, false));
    expect(plan.headers).toEqual([['Cache-Control', 'no-cache'], ['Connection', 'keep-alive'], ['Content-Type', 'text/event-stream'], ['Date', HTTP_DATE], ['Transfer-Encoding', 'chunked']]);
  });

  it('names the error frame: event: error, then the compact data line', () => {
    const plan = render(scenario([{ errorFrame: { message: 'failed <model> & "call"' } }]), ctx(D, false));
    expect(bodyText(plan)).toBe('event: error\ndata: {"error":"failed \\u003cmodel\\u003e \\u0026 \\"call\\""}\n\n');
    expect(plan.frames[0]).toMatchObject({ kind: 'error', event: 'error' });
  });
});

describe('adk-go events', () => {
  it('puts content last, writes null grounding/usage, and has no timestamp', () => {
    const plan = render(scenario(oneTool), ctx(D, false));
    expect(keys(plan.frames[0]!.data)).toEqual(['id', 'invocationId', 'author', 'groundingMetadata', 'usageMetadata', 'finishReason', 'modelVersion', 'actions', 'content']);
    expect(plan.frames[1]!.data).toMatch(/"groundingMetadata":null,"usageMetadata":null,"actions":\{"stateDelta":\{\},"artifactDelta":\{\}\},"content":\{"role":"user","parts":\[\{"functionResponse":\{"id":"adk-[0-9a-f-]{36}","name":"get_fire_perimeter","response":\{/);
    expect(plan.frames[0]!.data).toMatch(/"content":\{"role":"model","parts":\[\{"functionCall":\{"id":"adk-[0-9a-f-]{36}","name":"get_fire_perimeter","args":\{"fire_name":"Cedar Creek"\}\}\}\]\}\}$/);
    for (const e of events(plan)) expect(e).not.toHaveProperty('timestamp');
  });

  it('sorts map keys (tool responses, state deltas) as encoding/json does', () => {
    const plan = render(scenario([{ model: { author: 'a', calls: [{ name: 't', args: { z: 1, a: 2 } }] } }, { tools: { author: 'a', responses: [{ name: 't', response: { zeta: 1, alpha: 2 } }], stateDelta: { y: 1, b: 2 } } }]), ctx(D, false));
    expect(plan.frames[0]!.data).toContain('"args":{"a":2,"z":1}');
    expect(plan.frames[1]!.data).toContain('"stateDelta":{"b":2,"y":1}');
    expect(plan.frames[1]!.data).toContain('"response":{"alpha":2,"zeta":1}');
  });

  it('streams every chunk partial with turnComplete on the last, then an aggregate without partial or modelVersion', () => {
    const evs = events(render(scenario(plainText), ctx(D, true)));
    expect(evs.map((e) => e.partial)).toEqual([true, true, true, true, undefined]);
    expect(evs[3]).toMatchObject({ turnComplete: true, finishReason: 'STOP' });
    expect(evs[4]).not.toHaveProperty('modelVersion');
    expect(evs[4]).not.toHaveProperty('turnComplete');
  });

  it('keeps the same call id in the streamed preview and the aggregate', () => {
    const evs = events(render(scenario(oneTool), ctx(D, true)));
    const id = (i: number) => (evs[i]!.content as { parts: Array<{ functionCall: { id: string } }> }).parts[0]!.functionCall.id;
    expect(evs[0]).toMatchObject({ partial: true });
    expect(id(0)).toBe(id(1));
  });
});

describe('adk-go plain answers', () => {
  it('answers a missing session on /run_sse with http.Error 404 text', () => {
    const a = adkGo.sessionNotFound('s9', 'run');
    expect(a.status).toBe(404);
    expect(a.body).toBe('failed to find the session: failed to get session: session s9 not found\n');
    expect(a.headers).toEqual([['Content-Type', 'text/plain; charset=utf-8'], ['X-Content-Type-Options', 'nosniff'], ['Date', HTTP_DATE], ['Content-Length', '72']]);
  });

  it('encodes JSON with a trailing newline and lists no sessions as null', () => {
    expect(adkGo.health().body).toBe('{"status":"ok"}\n');
    expect(adkGo.listSessions([]).body).toBe('null\n');
    expect(adkGo.session({ id: 's', appName: 'a', userId: 'u', state: { b: 1, a: 2 }, events: [], lastUpdateTime: 1795318500123 }).body)
      .toBe('{"id":"s","appName":"a","userId":"u","lastUpdateTime":1795318500,"events":[],"state":{"a":2,"b":1}}\n');
  });
});
