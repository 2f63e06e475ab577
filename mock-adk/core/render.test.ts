/**
 * render(): determinism from the seed, pinned ids, waits, the http and bytes upstreams, and clear
 * errors for scripts that cannot be rendered.
 */
import { describe, expect, it } from 'vitest';
import { mergeHeaders, render, resolveHeaders } from './render.ts';
import { body, bodyText, ctx, events, fourAgentTools, oneTool, readBack, runScenario, scenarioWith } from './test-scenarios.ts';
import { HTTP_DATE } from './types.ts';
import type { Dialect } from './types.ts';

const DIALECTS: Dialect[] = ['adk-js', 'adk-python'];

describe('render determinism', () => {
  for (const dialect of DIALECTS) {
    it(`renders identical bytes for the same seed (${dialect})`, () => {
      const a = render(runScenario(fourAgentTools), ctx(dialect, true));
      const b = render(runScenario(fourAgentTools), ctx(dialect, true));
      expect(body(a)).toEqual(body(b));
      expect(a.chunks.map((c) => c.delayMs)).toEqual(b.chunks.map((c) => c.delayMs));
    });

    it(`draws other ids for another session but keeps the frame count (${dialect})`, () => {
      const a = events(render(runScenario(oneTool), ctx(dialect, true, { sessionId: 's-a' })));
      const b = events(render(runScenario(oneTool), ctx(dialect, true, { sessionId: 's-b' })));
      expect(a).toHaveLength(b.length);
      expect(a[0]!.invocationId).not.toBe(b[0]!.invocationId);
      expect(a.map((e) => e.id)).not.toEqual(b.map((e) => e.id));
    });
  }

  it('uses ctx.seed instead of the scenario id and session when given', () => {
    const a = render(runScenario(oneTool), ctx('adk-js', false, { sessionId: 's-a', seed: 'fixed' }));
    const b = render(runScenario(oneTool), ctx('adk-js', false, { sessionId: 's-b', seed: 'fixed' }));
    expect(bodyText(a)).toBe(bodyText(b));
  });

  it('keeps timestamps strictly increasing and moves them by the scripted waits', () => {
    const plan = render(runScenario([
      { model: { author: 'a', calls: [{ name: 't', args: {} }] } },
      { tools: { author: 'a', responses: [{ name: 't', response: {} }], delayMs: 90_000 } },
      { model: { author: 'a', text: 'done' } },
    ]), ctx('adk-js', false));
    const times = events(plan).map((e) => e.timestamp as number);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(90_000);
    expect(times[2]).toBeGreaterThan(times[1]!);
    expect(plan.chunks.map((c) => c.delayMs)).toEqual([0, 90_000, 0]);
  });

  it('pins the invocation id, event ids, call ids and timestamps from upstream', () => {
    const plan = render(runScenario(oneTool, { upstream: { invocationId: 'e-pinned', ids: { events: ['E1', 'E2'], calls: ['adk-call-1'], timestamps: [1000, 2000] } } }), ctx('adk-js', false));
    const evs = events(plan);
    expect(evs.map((e) => e.id).slice(0, 2)).toEqual(['E1', 'E2']);
    expect(evs.map((e) => e.timestamp).slice(0, 2)).toEqual([1000, 2000]);
    expect(evs.every((e) => e.invocationId === 'e-pinned')).toBe(true);
    expect(bodyText(plan)).toContain('"id":"adk-call-1"');
    expect(evs[2]!.id).toMatch(/^[A-Za-z0-9]{8}$/);
  });
});

describe('render steps', () => {
  it('turns silence into the next write\'s wait, and a trailing silence into an empty write', () => {
    const plan = render(runScenario([{ silence: { ms: 500 } }, { raw: { text: 'data: {}\n\n' } }, { silence: { ms: 250 } }], { upstream: { end: 'hold-open' } }), ctx('adk-js', false));
    expect(plan.chunks.map((c) => [c.bytes.length, c.delayMs, c.frame])).toEqual([[10, 500, 0], [0, 250, -1]]);
    expect(plan.end).toBe('hold-open');
  });

  it('writes raw base64 bytes verbatim and lists the frames they dispatch', () => {
    const plan = render(runScenario([{ raw: { base64: Buffer.from('data: [DONE]\n\n').toString('base64') } }]), ctx('adk-js', false));
    expect(readBack(plan)).toEqual(['[DONE]']);
    expect(plan.frames).toEqual([{ data: '[DONE]', kind: 'raw' }]);
  });

  it('renders the scripted thought as a thought part before the text', () => {
    const js = events(render(runScenario([{ model: { author: 'a', thought: 'Check the fixture.', text: 'Done.' } }]), ctx('adk-js', false)));
    expect((js[0]!.content as { parts: unknown[] }).parts).toEqual([{ text: 'Check the fixture.', thought: true }, { text: 'Done.' }]);
    const py = render(runScenario([{ model: { author: 'a', thought: 'Check the fixture.', text: 'Done.' } }]), ctx('adk-python', false));
    expect(py.frames[0]!.data).toContain('"parts":[{"thought":true,"text":"Check the fixture."},{"text":"Done."}]');
  });

  it('splits text 3 to 4 words a chunk by default, the same for every session', () => {
    const text = 'one two three four five six seven eight nine ten eleven';
    const a = events(render(runScenario([{ model: { author: 'a', text } }]), ctx('adk-js', true, { sessionId: 'x' })));
    const b = events(render(runScenario([{ model: { author: 'a', text } }]), ctx('adk-js', true, { sessionId: 'y' })));
    const texts = a.slice(0, -1).map((e) => (e.content as { parts: Array<{ text: string }> }).parts[0]!.text);
    expect(texts).toEqual(['one two three four ', 'five six seven ', 'eight nine ten eleven']);
    expect(b).toHaveLength(a.length);
  });

  it('carries a model step\'s stateDelta on its final event', () => {
    const plan = render(runScenario([{ model: { author: 'a', text: 'Recorded.', stateDelta: { last_answer: 'Recorded.' } } }]), ctx('adk-js', true));
    const evs = events(plan);
    expect((evs.at(-1)!.actions as { stateDelta: unknown }).stateDelta).toEqual({ last_answer: 'Recorded.' });
    expect((evs[0]!.actions as { stateDelta: unknown }).stateDelta).toEqual({});
  });
});

describe('render http and bytes upstreams', () => {
  it('answers an http upstream with the dialect\'s JSON headers and the scripted JSON', () => {
    const plan = render(scenarioWith({ kind: 'http', status: 404, json: { error: 'Session not found: s-a' } }), ctx('adk-js', false));
    expect(plan.status).toBe(404);
    expect(bodyText(plan)).toBe('{"error":"Session not found: s-a"}');
    expect(plan.headers.find(([n]) => n === 'Content-Length')).toEqual(['Content-Length', '34']);
    expect(plan.frames).toEqual([]);
  });

  it('sends a scripted text body with its own length and lets scripted headers override', () => {
    const plan = render(scenarioWith({ kind: 'http', status: 502, body: 'Bad Gateway', headers: [['content-type', 'text/plain'], ['x-extra', '1']] }), ctx('adk-python', false));
    expect(plan.headers).toEqual([['date', HTTP_DATE], ['server', 'uvicorn'], ['content-length', '11'], ['content-type', 'text/plain'], ['x-extra', '1']]);
    expect(bodyText(plan)).toBe('Bad Gateway');
  });

  it('writes byte chunks verbatim, repeated, with the dialect\'s SSE headers by default', () => {
    const plan = render(scenarioWith({ kind: 'bytes', chunks: [{ text: 'data: {"a":' }, { text: '1}\n\n', delayMs: 20 }, { base64: Buffer.from(': x\n').toString('base64'), repeat: 3 }], end: 'reset' }), ctx('adk-js', false));
    expect(plan.chunks.map((c) => c.delayMs)).toEqual([0, 20, 0, 0, 0]);
    expect(bodyText(plan)).toBe('data: {"a":1}\n\n: x\n: x\n: x\n');
    expect(plan.frames).toEqual([{ data: '{"a":1}', kind: 'raw', json: { a: 1 } }]);
    expect(plan.headers[2]).toEqual(['Content-Type', 'text/event-stream']);
    expect(plan.end).toBe('reset');
  });

  it('fills the Date placeholder and merges headers case-insensitively', () => {
    const now = new Date('2026-11-22T03:35:00Z');
    expect(resolveHeaders([['Date', HTTP_DATE], ['X', 'y']], now)).toEqual([['Date', 'Sun, 22 Nov 2026 03:35:00 GMT'], ['X', 'y']]);
    expect(mergeHeaders([['Content-Type', 'a']], [['content-type', 'b'], ['X', '1']])).toEqual([['Content-Type', 'b'], ['X', '1']]);
  });
});

describe('render refuses what it cannot render, saying where', () => {
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['a dialect other than the one a pinned run is fixed to', () => render(runScenario(oneTool, { pinned: 'captured adk-js bytes' }), ctx('adk-python', false)), /pinned to adk-js \(captured adk-js bytes\); it is not rendered in adk-python/],
    ['an unknown dialect', () => render(runScenario(oneTool), ctx('adk-go' as Dialect, false)), /ctx.dialect must be one of adk-js@2.0 \(alias adk-js\), .*adk-go@2.0.0/],
    ['a step of no known kind', () => render(runScenario([{ sleep: 1 } as never]), ctx('adk-js', false)), /steps\[0\] must have exactly one of model, tools/],
    ['tools with no calls to answer', () => render(runScenario([{ tools: { author: 'a', responses: [{ name: 't', response: {} }] } }]), ctx('adk-js', false)), /steps\[0\]\.tools answers no calls/],
    ['responses out of call order', () => render(runScenario([{ model: { author: 'a', calls: [{ name: 'x', args: {} }] } }, { tools: { author: 'a', responses: [{ name: 'y', response: {} }] } }]), ctx('adk-js', false)), /responses\[0\] is named y, but call 0 of steps\[0\] is x/],
    ['chunks that do not join to the text', () => render(runScenario([{ model: { author: 'a', text: 'abc', chunks: ['ab', 'x'] } }]), ctx('adk-js', true)), /steps\[0\]\.model\.chunks must join to its text/],
    ['a model step without content', () => render(runScenario([{ model: { author: 'a' } }]), ctx('adk-js', false)), /has no text, thought or calls/],
    ['raw bytes with both text and base64', () => render(runScenario([{ raw: { text: 'a', base64: 'YQ==' } }]), ctx('adk-js', false)), /needs exactly one of text or base64/],
    ['invalid base64', () => render(scenarioWith({ kind: 'bytes', chunks: [{ base64: '***' }] }), ctx('adk-js', false)), /chunks\[0\]\.base64 is not valid base64/],
    ['steps that are not an array', () => render(scenarioWith({ kind: 'run', steps: {} }), ctx('adk-js', false)), /upstream\.steps must be an array/],
    ['an http status out of range', () => render(scenarioWith({ kind: 'http', status: 42 }), ctx('adk-js', false)), /status must be an HTTP status 100\.\.599/],
    ['an anthropic turn', () => render(scenarioWith({ kind: 'anthropic-turn', messages: [] }), ctx('adk-js', false)), /renderAnthropicCall/],
  ];
  for (const [what, run, message] of cases) {
    it(`throws a TypeError for ${what}`, () => {
      expect(run).toThrow(TypeError);
      expect(run).toThrow(message);
    });
  }
});

describe('adk-js transfer with streaming (wire-format §5e)', () => {
  it('writes the coordinator metadata-only event after the sub-agent final answer, not after the transfer result', async () => {
    const { loadScenarios } = await import('../../scenarios/loader.ts');
    const scenario = loadScenarios().scenarios.find((s) => s.id === 'transfer_streaming_reinvocation')!;
    const plan = render(scenario, { dialect: 'adk-js', streaming: true, appName: scenario.id, userId: 'u1', sessionId: 's1' });
    const events = plan.frames.map((f) => f.json as { author: string; partial?: boolean; content?: unknown });
    const metaAt = events.findIndex((e) => e.content === undefined);
    const subFinalAt = events.findIndex((e) => e.author !== 'coordinator' && e.partial === false);
    expect(subFinalAt).toBeGreaterThan(1);
    expect(metaAt).toBe(subFinalAt + 1);
    expect(events[metaAt]!.author).toBe('coordinator');
  });
});
