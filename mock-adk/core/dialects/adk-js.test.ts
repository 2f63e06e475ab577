/**
 * The adk-js dialect reproduces research/adk-wire-format.md: the §4 exact bytes, the §5 event
 * sequences (counts, partial/finishReason placement, key orders), the §6 error forms, and the §1
 * plain answers of Express.
 */
import { describe, expect, it } from 'vitest';
import { render } from '../render.ts';
import { ctx, events, fourAgentTools, keys, oneTool, plainText, runScenario, transfer } from '../test-scenarios.ts';
import { HTTP_DATE } from '../types.ts';
import { adkJs } from './adk-js.ts';

const MODEL_KEYS = ['invocationId', 'author', 'id', 'actions', 'longRunningToolIds', 'timestamp', 'content', 'usageMetadata', 'finishReason'];
const EMPTY_ACTIONS = '{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{},"requestedToolConfirmations":{}}';

describe('adk-js framing and headers (§3)', () => {
  const plan = render(runScenario(plainText), ctx('adk-js', false));

  it('sends the Express SSE headers in wire order with a Date the shell fills', () => {
    expect(plan.status).toBe(200);
    expect(plan.headers).toEqual([['X-Powered-By', 'Express'], ['Cache-Control', 'no-cache'], ['Content-Type', 'text/event-stream'], ['Connection', 'keep-alive'], ['Date', HTTP_DATE]]);
  });

  it('writes each event as one chunk of data, compact JSON and a blank line, ending at EOF', () => {
    expect(plan.chunks).toHaveLength(1);
    const text = new TextDecoder().decode(plan.chunks[0]!.bytes);
    expect(text).toBe(`data: ${plan.frames[0]!.data}\n\n`);
    expect(text).not.toMatch(/\r|\n(?!\n?$)/);
    expect(plan.end).toBe('eof');
  });

  it('keeps non-ASCII text as raw UTF-8', () => {
    expect(plan.frames[0]!.data).toContain('acres — about');
  });
});

describe('adk-js §5a plain text, streaming:false', () => {
  it('renders the §4 raw final answer byte for byte when ids and time are pinned', () => {
    const scenario = runScenario(plainText, { upstream: { invocationId: 'e-cdf9a1b2-0c3d-4e5f-8a9b-0c1d2e3f4a5b', ids: { events: ['B8EWHkk1'], timestamps: [1795318500511] } } });
    const plan = render(scenario, ctx('adk-js', false));
    expect(plan.frames[0]!.data).toBe(
      `{"invocationId":"e-cdf9a1b2-0c3d-4e5f-8a9b-0c1d2e3f4a5b","author":"assistant","id":"B8EWHkk1","actions":${EMPTY_ACTIONS},"longRunningToolIds":[],"timestamp":1795318500511,`
      + '"content":{"role":"model","parts":[{"text":"The Cedar Creek fire burned 127,283 acres — about 199 square miles — and is 100% contained."}]},'
      + '"usageMetadata":{"promptTokenCount":59,"candidatesTokenCount":26,"totalTokenCount":85,"promptTokensDetails":[{"modality":"TEXT","tokenCount":59}]},"finishReason":"STOP"}',
    );
  });

  it('draws 8-alphanumeric event ids, e-uuid4 invocation ids and integer millisecond timestamps', () => {
    const [e] = events(render(runScenario(plainText), ctx('adk-js', false)));
    expect(e!.id).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(e!.invocationId).toMatch(/^e-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.isInteger(e!.timestamp)).toBe(true);
    expect(e).not.toHaveProperty('partial');
  });
});

describe('adk-js §5b plain text, streaming:true', () => {
  const plan = render(runScenario(plainText), ctx('adk-js', true));
  const evs = events(plan);

  it('renders 5 events: 4 partial chunks, the last one with finishReason, then the aggregate', () => {
    expect(evs.map((e) => e.partial)).toEqual([true, true, true, true, false]);
    expect(evs.map((e) => e.finishReason)).toEqual([undefined, undefined, undefined, 'STOP', 'STOP']);
  });

  it('repeats the concatenated chunk text in the partial:false aggregate', () => {
    const chunkText = evs.slice(0, 4).map((e) => (e.content as { parts: Array<{ text: string }> }).parts[0]!.text).join('');
    expect((evs[4]!.content as { parts: Array<{ text: string }> }).parts).toEqual([{ text: chunkText }]);
  });

  it('gives every chunk a running usage and a new id, in the model key order', () => {
    const candidates = evs.map((e) => (e.usageMetadata as { candidatesTokenCount: number }).candidatesTokenCount);
    expect(candidates).toEqual([...candidates].sort((a, b) => a - b));
    expect(new Set(evs.map((e) => e.id)).size).toBe(5);
    expect(keys(plan.frames[0]!.data)).toEqual([...MODEL_KEYS.slice(0, 8), 'partial']);
    expect(keys(plan.frames[3]!.data)).toEqual([...MODEL_KEYS, 'partial']);
  });
});

describe('adk-js §5c one FunctionTool', () => {
  it('renders 3 events without streaming: call, tool result, answer', () => {
    const plan = render(runScenario(oneTool), ctx('adk-js', false));
    const evs = events(plan);
    expect(evs).toHaveLength(3);
    expect(keys(plan.frames[0]!.data)).toEqual(MODEL_KEYS);
    expect(plan.frames[0]!.data).toMatch(/"parts":\[\{"functionCall":\{"name":"get_fire_perimeter","args":\{"fire_name":"Cedar Creek"\},"id":"adk-[0-9a-f-]{36}"\}\}\]/);
    expect(keys(plan.frames[1]!.data)).toEqual(['invocationId', 'author', 'content', 'actions', 'id', 'longRunningToolIds', 'timestamp']);
    expect(plan.frames[1]!.data).toContain(`"content":{"role":"user","parts":[{"functionResponse":{"id":"${(evs[0]!.content as { parts: Array<{ functionCall: { id: string } }> }).parts[0]!.functionCall.id}","name":"get_fire_perimeter","response":{`);
  });

  it('renders 7 events when streaming, the metadata-only event third, after the tool result', () => {
    const plan = render(runScenario(oneTool), ctx('adk-js', true));
    const evs = events(plan);
    expect(evs).toHaveLength(7);
    expect(evs[0]).toMatchObject({ partial: false, finishReason: 'STOP' });
    expect(evs[1]).not.toHaveProperty('partial');
    expect(keys(plan.frames[2]!.data)).toEqual(['invocationId', 'author', 'id', 'actions', 'longRunningToolIds', 'timestamp', 'usageMetadata', 'finishReason', 'partial']);
    expect(evs[2]).toMatchObject({ finishReason: 'STOP', partial: false });
    expect(evs.slice(3).map((e) => e.partial)).toEqual([true, true, true, false]);
  });
});

describe('adk-js §5d four AgentTools in one turn', () => {
  it('renders 5 events without streaming, the merged result keyed content, actions, timestamp, id', () => {
    const plan = render(runScenario(fourAgentTools), ctx('adk-js', false));
    const evs = events(plan);
    expect(evs).toHaveLength(5);
    const parts = (evs[0]!.content as { parts: Array<Record<string, unknown>> }).parts;
    expect(parts).toHaveLength(5);
    expect(parts[0]).toEqual({ text: 'Delegating to all four specialists.' });
    expect(keys(plan.frames[1]!.data)).toEqual(['invocationId', 'author', 'content', 'actions', 'timestamp', 'id', 'longRunningToolIds']);
    const calls = parts.slice(1).map((p) => (p.functionCall as { id: string }).id);
    const responses = (evs[1]!.content as { parts: Array<{ functionResponse: { id: string } }> }).parts.map((p) => p.functionResponse.id);
    expect(responses).toEqual(calls);
  });

  it('renders 16 events when streaming, splitting the text before the calls', () => {
    const evs = events(render(runScenario(fourAgentTools), ctx('adk-js', true)));
    expect(evs).toHaveLength(16);
    const shape = evs.map((e) => {
      const parts = (e.content as { parts?: Array<Record<string, unknown>> } | undefined)?.parts ?? [];
      const what = parts.length === 0 ? 'meta' : parts[0]!.functionCall ? 'calls' : parts[0]!.functionResponse ? 'result' : 'text';
      return `${what}:${String(e.partial)}:${e.finishReason ?? '-'}`;
    });
    expect(shape).toEqual([
      'text:true:-', 'text:true:-', 'text:false:-', 'calls:false:STOP', 'result:undefined:-', 'meta:false:STOP',
      'calls:false:STOP', 'result:undefined:-', 'meta:false:STOP',
      'text:true:-', 'text:true:-', 'text:true:-', 'text:true:-', 'text:true:-', 'text:true:STOP', 'text:false:STOP',
    ]);
    expect(evs[2]).toHaveProperty('usageMetadata');
  });
});

describe('adk-js §5e transfer', () => {
  it('renders the call with agentName, the result with actions.transferToAgent, then the sub-agent', () => {
    const scenario = runScenario([{ model: { author: 'coordinator', calls: [{ name: 'transfer_to_agent', args: { agent_name: 'trail_assessor' } }] } }, ...transfer.slice(1)]);
    const plan = render(scenario, ctx('adk-js', false));
    expect(plan.frames[0]!.data).toContain('{"functionCall":{"name":"transfer_to_agent","args":{"agentName":"trail_assessor"},"id":"adk-');
    expect(plan.frames[1]!.data).toContain('"actions":{"stateDelta":{},"artifactDelta":{},"requestedAuthConfigs":{},"requestedToolConfirmations":{},"transferToAgent":"trail_assessor"}');
    const evs = events(plan);
    expect(evs[2]).toMatchObject({ author: 'trail_assessor', invocationId: evs[0]!.invocationId });
  });
});

describe('adk-js §6 errors', () => {
  it('renders a thrown model error as an event keyed invocationId, author, errorCode, errorMessage, id', () => {
    const plan = render(runScenario([{ modelError: { author: 'coordinator', errorCode: 'UNKNOWN_ERROR', errorMessage: 'scripted model failure: socket hang up' } }]), ctx('adk-js', false));
    expect(keys(plan.frames[0]!.data)).toEqual(['invocationId', 'author', 'errorCode', 'errorMessage', 'id', 'actions', 'longRunningToolIds', 'timestamp']);
    expect(plan.frames[0]!.kind).toBe('event');
  });

  it('renders SAFETY without content, usage and finishReason after the timestamp', () => {
    const plan = render(runScenario([{ modelError: { author: 'coordinator', errorCode: 'SAFETY', errorMessage: 'Response blocked for safety reasons.', finishReason: 'SAFETY', usage: { promptTokenCount: 40, totalTokenCount: 40 } } }]), ctx('adk-js', false));
    expect(keys(plan.frames[0]!.data)).toEqual(['invocationId', 'author', 'id', 'actions', 'longRunningToolIds', 'timestamp', 'errorCode', 'errorMessage', 'usageMetadata', 'finishReason']);
  });

  it('renders an HTTP model error mid-run with the stringified status as errorCode, after the tool round', () => {
    const plan = render(runScenario([...oneTool.slice(0, 2), { modelError: { author: 'coordinator', errorCode: '429', errorMessage: 'You exceeded your current quota.' } }]), ctx('adk-js', false));
    expect(events(plan).map((e) => e.errorCode)).toEqual([undefined, undefined, '429']);
    expect(plan.frames[2]!.data).toContain('"author":"coordinator","errorCode":"429","errorMessage":"You exceeded your current quota.","id":"');
  });

  it('renders a mid-stream error after two partial chunks with no aggregate', () => {
    const plan = render(runScenario([
      { model: { author: 'coordinator', text: 'The burn severity in ', chunks: ['The burn ', 'severity in '], truncate: true } },
      { modelError: { author: 'coordinator', errorCode: '503', errorMessage: 'The model is overloaded.' } },
    ]), ctx('adk-js', true));
    expect(events(plan).map((e) => e.partial ?? e.errorCode)).toEqual([true, true, '503']);
  });

  it('writes no metadata-only event when an unknown-tool error ends the call turn', () => {
    const plan = render(runScenario([
      { model: { author: 'coordinator', calls: [{ name: 'nonexistent_tool', args: {} }] } },
      { modelError: { author: 'coordinator', errorCode: 'UNKNOWN_ERROR', errorMessage: 'Function nonexistent_tool is not found in the toolsDict.' } },
    ]), ctx('adk-js', true));
    expect(plan.frames).toHaveLength(2);
  });

  it('writes in-stream error lines compactly and data: {} verbatim', () => {
    const plan = render(runScenario([{ errorFrame: { message: 'No parts in the newMessage.' } }, { raw: { text: 'data: {}\n\n' } }]), ctx('adk-js', false));
    expect(new TextDecoder().decode(plan.chunks[0]!.bytes)).toBe('data: {"error":"No parts in the newMessage."}\n\n');
    expect(plan.frames.map((f) => [f.kind, f.data])).toEqual([['error', '{"error":"No parts in the newMessage."}'], ['raw', '{}']]);
  });
});

describe('adk-js plain answers (§1, §6, §7)', () => {
  it('answers a missing session with 404 JSON and Express JSON headers', () => {
    const a = adkJs.sessionNotFound('does-not-exist');
    expect(a.status).toBe(404);
    expect(a.body).toBe('{"error":"Session not found: does-not-exist"}');
    expect(a.headers.map(([n]) => n)).toEqual(['X-Powered-By', 'Content-Type', 'Content-Length', 'ETag', 'Date']);
    expect(a.headers[1]).toEqual(['Content-Type', 'application/json; charset=utf-8']);
    expect(a.headers[2]).toEqual(['Content-Length', String(a.body.length)]);
  });

  it('answers duplicate sessions 400, lists sessions as a paginated object, deletes with 204 and the ETag of {}', () => {
    expect(adkJs.sessionExists('s-a')).toMatchObject({ status: 400, body: '{"error":"Session already exists: s-a"}' });
    const s = { id: 's-a', appName: 'plain_text', userId: 'u1', state: { fire_name: 'Cedar Creek' }, lastUpdateTime: 1795318741768 };
    expect(adkJs.session(s).body).toBe('{"id":"s-a","appName":"plain_text","userId":"u1","state":{"fire_name":"Cedar Creek"},"events":[],"lastUpdateTime":1795318741768}');
    expect(adkJs.listSessions([s, { ...s, id: 's-b' }, { ...s, id: 's-c' }]).body).toMatch(/^\{"sessions":\[\{"id":"s-a",.*"state":\{\},"events":\[\].*\],"page":1,"limit":3,"totalItems":3,"totalPages":1\}$/);
    expect(adkJs.deleteSession()).toEqual({ status: 204, headers: [['X-Powered-By', 'Express'], ['ETag', 'W/"2-vyGp6PvFo4RvsFtPoIWeCReyIC8"'], ['Date', HTTP_DATE]], body: '' });
  });

  it('answers malformed JSON with the 400 Express error page and its stack trace', () => {
    const a = adkJs.malformedJson('{"appName":"x", userId}');
    expect(a.status).toBe(400);
    expect(a.headers.find(([n]) => n === 'Content-Type')).toEqual(['Content-Type', 'text/html; charset=utf-8']);
    expect(a.body).toMatch(/^<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error<\/title>\n<\/head>\n<body>\n<pre>SyntaxError: Expected double-quoted property name in JSON at position 16<br> &nbsp; &nbsp;at JSON.parse \(&lt;anonymous&gt;\)<br> &nbsp; &nbsp;at parse \(\/.*body-parser\/lib\/types\/json.js/);
    expect(() => adkJs.malformedJson('{"ok":true}')).toThrow(/parses as JSON/);
  });

  it('answers unknown routes with the Cannot GET page, health with OK, version 2.0.0 and sorted apps', () => {
    expect(adkJs.notFound('GET', '/run_sse').body).toContain('<pre>Cannot GET /run_sse</pre>');
    expect(adkJs.methodNotAllowed('GET', '/run_sse', ['POST']).status).toBe(404);
    expect(adkJs.health()).toMatchObject({ status: 200, body: 'OK' });
    expect(adkJs.health().headers[1]).toEqual(['Content-Type', 'text/html; charset=utf-8']);
    expect(adkJs.version().body).toBe('{"version":"2.0.0"}');
    expect(adkJs.listApps(['plain_text', 'agent_tools']).body).toBe('["agent_tools","plain_text"]');
  });
});
