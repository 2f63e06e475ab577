/**
 * The adk-python dialect follows research/adk-python-facts.md (Gen C, progressive SSE): pydantic
 * key order and exclude_none, uuid4 ids, float-second timestamps, json.dumps error frames in the
 * three generations' styles, the artifact split, and FastAPI's plain answers.
 */
import { describe, expect, it } from 'vitest';
import { render } from '../render.ts';
import { ctx, events, fourAgentTools, keys, oneTool, plainText, runScenario, transfer } from '../test-scenarios.ts';
import { HTTP_DATE } from '../types.ts';
import { adkPython } from './adk-python.ts';
import { pyJsonError } from './py-json-errors.ts';
import { asciiString, pyCompact, pyDumps, pyFloat, pyFloatRepr } from './py-json.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EVENT_TAIL = ['invocationId', 'author', 'actions'];

describe('adk-python framing and headers (§1.3)', () => {
  it('sends uvicorn headers: date, server, content-type with charset, lowercase transfer-encoding, nothing else', () => {
    const plan = render(runScenario(plainText), ctx('adk-python', false));
    expect(plan.headers).toEqual([['date', HTTP_DATE], ['server', 'uvicorn'], ['content-type', 'text/event-stream; charset=utf-8'], ['transfer-encoding', 'chunked']]);
    expect(new TextDecoder().decode(plan.chunks[0]!.bytes)).toBe(`data: ${plan.frames[0]!.data}\n\n`);
  });
});

describe('adk-python events (§2)', () => {
  it('orders a model event as LlmResponse then Event fields, content as {parts, role}', () => {
    const plan = render(runScenario(plainText), ctx('adk-python', false));
    expect(keys(plan.frames[0]!.data)).toEqual(['modelVersion', 'content', 'finishReason', 'usageMetadata', ...EVENT_TAIL, 'id', 'timestamp']);
    expect(plan.frames[0]!.data).toMatch(/^\{"modelVersion":"gemini-2\.0-flash","content":\{"parts":\[\{"text":"The Cedar Creek fire[^"]*"\}\],"role":"model"\},"finishReason":"STOP","usageMetadata":\{"candidatesTokenCount":26,"promptTokenCount":59,"promptTokensDetails":\[\{"modality":"TEXT","tokenCount":59\}\],"totalTokenCount":85\}/);
  });

  it('draws uuid4 event ids and float-second timestamps with microseconds', () => {
    const plan = render(runScenario(plainText), ctx('adk-python', false));
    const e = events(plan)[0]!;
    expect(e.id).toMatch(UUID);
    expect(e.invocationId).toMatch(/^e-/);
    expect(plan.frames[0]!.data).toMatch(/"timestamp":1795318\d{3}\.\d{1,6}\}$/);
  });

  it('writes pinned timestamps as Python floats, keeping .0 on integral ones', () => {
    const plan = render(runScenario(plainText, { upstream: { ids: { events: ['5755cd59-0000-4000-8000-000000000000'], timestamps: [1767081391] } } }), ctx('adk-python', false));
    expect(plan.frames[0]!.data).toMatch(/"id":"5755cd59-0000-4000-8000-000000000000","timestamp":1767081391\.0\}$/);
  });

  it('renders calls as {id, args, name}, longRunningToolIds only on call events, responses as {id, name, response}', () => {
    const plan = render(runScenario(oneTool), ctx('adk-python', false));
    expect(plan.frames[0]!.data).toMatch(/"parts":\[\{"functionCall":\{"id":"adk-[0-9a-f-]{36}","args":\{"fire_name":"Cedar Creek"\},"name":"get_fire_perimeter"\}\}\],"role":"model"\}/);
    expect(keys(plan.frames[0]!.data)).toEqual(['modelVersion', 'content', 'finishReason', 'usageMetadata', ...EVENT_TAIL, 'longRunningToolIds', 'id', 'timestamp']);
    expect(keys(plan.frames[1]!.data)).toEqual(['content', ...EVENT_TAIL, 'id', 'timestamp']);
    expect(plan.frames[1]!.data).toMatch(/^\{"content":\{"parts":\[\{"functionResponse":\{"id":"adk-[0-9a-f-]{36}","name":"get_fire_perimeter","response":/);
    expect(keys(plan.frames[2]!.data)).not.toContain('longRunningToolIds');
  });

  it('renders a transfer with agent_name and transferToAgent between artifactDelta and requestedAuthConfigs', () => {
    const plan = render(runScenario(transfer), ctx('adk-python', false));
    expect(plan.frames[0]!.data).toContain('"args":{"agent_name":"trail_assessor"},"name":"transfer_to_agent"');
    expect(plan.frames[1]!.data).toContain('"actions":{"stateDelta":{},"artifactDelta":{},"transferToAgent":"trail_assessor","requestedAuthConfigs":{},"requestedToolConfirmations":{}}');
  });

  it('renders the §5d run as 5 events without streaming, one merged response event', () => {
    const evs = events(render(runScenario(fourAgentTools), ctx('adk-python', false)));
    expect(evs).toHaveLength(5);
    expect((evs[1]!.content as { parts: unknown[] }).parts).toHaveLength(4);
  });
});

describe('adk-python progressive streaming (§3.2)', () => {
  it('marks every chunk partial:true without usage, then one aggregate with text, usage and finishReason', () => {
    const plan = render(runScenario(plainText), ctx('adk-python', true));
    const evs = events(plan);
    expect(evs.map((e) => e.partial)).toEqual([true, true, true, true, false]);
    expect(evs.slice(0, 4).every((e) => !('usageMetadata' in e))).toBe(true);
    expect(keys(plan.frames[0]!.data)).toEqual(['modelVersion', 'content', 'partial', ...EVENT_TAIL, 'id', 'timestamp']);
    expect(keys(plan.frames[4]!.data)).toEqual(['modelVersion', 'content', 'partial', 'finishReason', 'usageMetadata', ...EVENT_TAIL, 'id', 'timestamp']);
    const joined = evs.slice(0, 4).map((e) => (e.content as { parts: Array<{ text: string }> }).parts[0]!.text).join('');
    expect((evs[4]!.content as { parts: Array<{ text: string }> }).parts[0]!.text).toBe(joined);
  });

  it('previews calls in a partial chunk and aggregates text and calls in one event, with no metadata-only event', () => {
    const evs = events(render(runScenario(fourAgentTools), ctx('adk-python', true)));
    // 2 text chunks + calls preview + aggregate, result; calls preview + aggregate, result; 6 chunks + aggregate.
    expect(evs).toHaveLength(4 + 1 + 2 + 1 + 7);
    const aggregate = evs[3]!.content as { parts: Array<Record<string, unknown>> };
    expect(aggregate.parts.map((p) => (p.text !== undefined ? 'text' : 'call'))).toEqual(['text', 'call', 'call', 'call', 'call']);
    expect(evs[2]).toMatchObject({ partial: true, longRunningToolIds: [] });
  });

  it('puts errorCode on a non-STOP aggregate and stops at the partials when truncated', () => {
    const maxTokens = events(render(runScenario([{ model: { author: 'a', text: 'one two three four five', finishReason: 'MAX_TOKENS' } }]), ctx('adk-python', true)));
    expect(maxTokens.at(-1)).toMatchObject({ partial: false, finishReason: 'MAX_TOKENS', errorCode: 'MAX_TOKENS' });
    const cut = events(render(runScenario([{ model: { author: 'a', text: 'one two three four five', truncate: true } }]), ctx('adk-python', true)));
    expect(cut.every((e) => e.partial === true)).toBe(true);
  });
});

describe('adk-python artifact split (§1.3 step 7)', () => {
  it('writes content and actions as two frames with the same id', () => {
    const plan = render(runScenario([{ model: { author: 'a', text: 'Saved the report.', artifactDelta: { 'report.md': 0 } } }]), ctx('adk-python', false));
    const [first, second] = events(plan);
    expect(first!.id).toBe(second!.id);
    expect(first).toHaveProperty('content');
    expect((first!.actions as { artifactDelta: unknown }).artifactDelta).toEqual({});
    expect(second).not.toHaveProperty('content');
    expect((second!.actions as { artifactDelta: unknown }).artifactDelta).toEqual({ 'report.md': 0 });
  });
});

describe('adk-python errors', () => {
  const frameOf = (style?: 'dialect' | 'python-legacy-unescaped' | 'python-structured') => render(
    runScenario([{ errorFrame: { message: 'bad "quote" — café', ...(style ? { style } : {}), errorType: 'ValueError' } }]),
    ctx('adk-python', false),
  ).frames[0]!;

  it('writes Gen C error frames with json.dumps spacing and ASCII escapes', () => {
    expect(frameOf().data).toBe('{"error": "bad \\"quote\\" \\u2014 caf\\u00e9"}');
  });

  it('writes Gen A frames unescaped, which is invalid JSON when the message has quotes', () => {
    const f = frameOf('python-legacy-unescaped');
    expect(f.data).toBe('{"error": "bad "quote" — café"}');
    expect(f).toMatchObject({ kind: 'error' });
    expect(f).not.toHaveProperty('json');
  });

  it('writes Gen D frames with the exception type and snake_case error_details', () => {
    const f = frameOf('python-structured');
    expect(f.data).toMatch(/^\{"error": "ValueError: bad \\"quote\\" \\u2014 caf\\u00e9", "error_details": \{"error_type": "ValueError", "error_message": "bad \\"quote\\" \\u2014 caf\\u00e9", "timestamp": \d+\.\d+\}\}$/);
  });

  it('renders a model error event without content, finishReason before errorCode', () => {
    const plan = render(runScenario([{ modelError: { author: 'a', errorCode: 'MALFORMED_FUNCTION_CALL', finishReason: 'MALFORMED_FUNCTION_CALL' } }]), ctx('adk-python', false));
    expect(keys(plan.frames[0]!.data)).toEqual(['modelVersion', 'finishReason', 'errorCode', ...EVENT_TAIL, 'id', 'timestamp']);
  });
});

describe('Python JSON encodings', () => {
  it('prints floats like repr()', () => {
    expect([1767081391.059711, 1767081391, 0.9, 1e16, 1.5e-7, 0.0001, 123.0, -2.5].map(pyFloatRepr))
      .toEqual(['1767081391.059711', '1767081391.0', '0.9', '1e+16', '1.5e-07', '0.0001', '123.0', '-2.5']);
  });

  it('writes compact pydantic JSON with raw UTF-8 and json.dumps with spaces and escapes', () => {
    expect(pyCompact({ a: 'é', b: [1, pyFloat(2)], c: undefined })).toBe('{"a":"é","b":[1,2.0]}');
    expect(pyDumps({ a: 'é\n😀', b: [1, 2] })).toBe('{"a": "\\u00e9\\n\\ud83d\\ude00", "b": [1, 2]}');
    expect(asciiString('\x7f\x01')).toBe('"\\u007f\\u0001"');
  });

  it('names the position and message json.loads would give', () => {
    expect(pyJsonError('{"appName":"x", userId}')).toEqual({ msg: 'Expecting property name enclosed in double quotes', pos: 16 });
    expect(pyJsonError('{"a" 1}')).toEqual({ msg: "Expecting ':' delimiter", pos: 5 });
    expect(pyJsonError('{"a":1 "b":2}')).toEqual({ msg: "Expecting ',' delimiter", pos: 7 });
    expect(pyJsonError('{"a":"x')).toEqual({ msg: 'Unterminated string starting at', pos: 5 });
    expect(pyJsonError('[1,]')).toEqual({ msg: 'Expecting value', pos: 3 });
    expect(pyJsonError('{} x')).toEqual({ msg: 'Extra data', pos: 3 });
    expect(pyJsonError('')).toEqual({ msg: 'Expecting value', pos: 0 });
    expect(pyJsonError('{"a":[1,2,{"b":null}]}')).toBeUndefined();
  });
});

describe('adk-python plain answers (§1.5)', () => {
  it('answers a missing session with {"detail"} and FastAPI JSON headers', () => {
    const a = adkPython.sessionNotFound('nope');
    expect(a).toEqual({ status: 404, headers: [['date', HTTP_DATE], ['server', 'uvicorn'], ['content-length', '36'], ['content-type', 'application/json']], body: '{"detail":"Session not found: nope"}' });
    expect(adkPython.sessionNotFound('nope', 'get').body).toBe('{"detail":"Session not found"}');
  });

  it('answers duplicates 409, lists a plain array, deletes with 200 null', () => {
    expect(adkPython.sessionExists('s-a')).toMatchObject({ status: 409, body: '{"detail":"Session already exists: s-a"}' });
    const s = { id: 's-a', appName: 'my_app', userId: 'user', state: { k: 1 }, lastUpdateTime: 1767879087399.263 };
    expect(adkPython.session(s).body).toBe('{"id":"s-a","appName":"my_app","userId":"user","state":{"k":1},"events":[],"lastUpdateTime":1767879087.399263}');
    expect(adkPython.listSessions([s]).body).toBe('[{"id":"s-a","appName":"my_app","userId":"user","state":{},"events":[],"lastUpdateTime":1767879087.399263}]');
    expect(adkPython.deleteSession()).toMatchObject({ status: 200, body: 'null' });
  });

  it('answers malformed JSON with a 422 json_invalid detail list', () => {
    expect(adkPython.malformedJson('{"appName":"x", userId}')).toMatchObject({
      status: 422,
      body: '{"detail":[{"type":"json_invalid","loc":["body",16],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting property name enclosed in double quotes"}}]}',
    });
  });

  it('answers unknown routes with {"detail":"Not Found"}, wrong methods with 405 and allow', () => {
    expect(adkPython.notFound('GET', '/x').body).toBe('{"detail":"Not Found"}');
    const a = adkPython.methodNotAllowed('GET', '/run_sse', ['POST']);
    expect(a.status).toBe(405);
    expect(a.headers.map(([n]) => n)).toEqual(['date', 'server', 'allow', 'content-length', 'content-type']);
    expect(adkPython.health().body).toBe('{"status":"ok"}');
    expect(JSON.parse(adkPython.version().body)).toMatchObject({ language: 'python' });
  });
});
