/**
 * Every requirement the tap added has a mutant it must catch, and a few gateway requirements the
 * tap judges live too: a defective upstream, real traffic through a real tap, and the failed
 * requirement ids compared exactly (the mutant's and no other).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../test/gateway-fixtures.ts';
import { pyDumps } from '../mock-adk/core/dialects/py-json.ts';
import { render } from '../mock-adk/core/render.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { requirements } from '../harness/requirements/index.ts';
import { pairMutantBreak, tapMutants } from '../harness/mutants/tap.ts';
import { clientHeaders, failedOf, findingsOf, gatewayHeaders, jsFinalFrame, jsHeaders, runBody, startNotHttp, startTestTap, startUpstream, stream, type TestTap, type UpstreamBehaviour } from './test-support.ts';

const final = jsFinalFrame();
const frame = (event: Record<string, unknown>) => `data: ${JSON.stringify(event)}\n\n`;
const { id: _id, ...withoutId } = final.event;

/** adk-python 2.x's events of a corpus run (every one carries nodeInfo), as its server writes them. */
const py2 = (() => {
  const scenario = loadScenarios().scenarios.find((s) => s.id === 'single_tool_call');
  if (!scenario) throw new Error('the corpus has no single_tool_call scenario');
  const plan = render(scenario, { dialect: 'adk-python@2.x', streaming: false, appName: 'single_tool_call', userId: 'u1', sessionId: 'fixed' });
  const text = Buffer.concat(plan.chunks.map((c) => Buffer.from(c.bytes))).toString('utf8');
  return text.split('\n\n').filter((f) => f.startsWith('data: ')).map((f) => JSON.parse(f.slice('data: '.length)) as Record<string, unknown>);
})();
const pyHeaders: Array<[string, string]> = [['date', 'Tue, 24 Nov 2026 10:00:00 GMT'], ['server', 'uvicorn'], ['cache-control', 'no-cache'], ['connection', 'keep-alive'], ['x-accel-buffering', 'no'], ['content-type', 'text/event-stream; charset=utf-8']];
const pyFrame = (event: Record<string, unknown>) => `data: ${pyDumps(event)}\n\n`;

const behaviours: Record<string, UpstreamBehaviour> = {
  // The last event without nodeInfo: 1.x's, after 2.x's.
  'tap-upstream-mixed-python-versions': stream(py2.map((e, i) => { if (i < py2.length - 1) return pyFrame(e); const { nodeInfo: _n, ...older } = e; return pyFrame(older); }), pyHeaders),
  'tap-upstream-unterminated-event': stream([final.bytes, frame({ ...final.event, id: 'Zz9Zz9Zz' }).trimEnd()]),
  'tap-upstream-crlf': stream([final.bytes.replace(/\n/g, '\r\n')]),
  'tap-upstream-preamble-comment': stream([': stream open\n\n', final.bytes]),
  'tap-upstream-event-without-id': stream([frame(withoutId)]),
  'tap-upstream-snake-case-key': stream([frame({ ...final.event, invocation_id: final.event.invocationId })]),
  'tap-upstream-python-spaced-error-in-js': stream(['data: {"error": "scripted failure"}\n\n']),
  'tap-upstream-eof-after-call': stream([frame({ ...final.event, content: { role: 'model', parts: [{ functionCall: { name: 'get_fire_perimeter', args: { fire_name: 'Cedar Creek' }, id: 'adk-41af49b4-18ff-443c-9f25-a54f11077556' } }] } })]),
  'tap-upstream-holds-open': stream([final.bytes], jsHeaders, 'hold'),
  'tap-gateway-no-accel-header': stream([final.bytes], gatewayHeaders.filter(([n]) => n !== 'X-Accel-Buffering')),
  'tap-gateway-ms-timestamp': stream(['data: {"error": "Request timeout after 300 seconds", "error_code": "TIMEOUT", "timestamp": 1729350300123}\n\n'], gatewayHeaders),
  'tap-gateway-adds-done': stream([final.bytes, 'data: [DONE]\n\n'], gatewayHeaders),
  // What a gateway whose `finally` writes an error frame (or whose exception handler caught the upstream's close) sends after a complete run.
  'tap-gateway-stream-error-after-answer': stream([final.bytes, 'data: {"error": "Stream error: upstream closed", "error_code": "STREAM_ERROR", "timestamp": 1729350000.789}\n\n'], gatewayHeaders),
};

const streamError = 'data: {"error": "Stream error: upstream closed", "error_code": "STREAM_ERROR", "timestamp": 1729350000.789}\n\n';
/** A STREAM_ERROR the seeds allow: after a cut before any answer, and after an answer whose stream was then held open. */
const allowed: Record<string, UpstreamBehaviour> = {
  'ok-stream-error-before-answer': stream([frame({ ...final.event, content: { role: 'model', parts: [{ functionCall: { name: 'get_fire_perimeter', args: { fire_name: 'Cedar Creek' }, id: 'adk-41af49b4-18ff-443c-9f25-a54f11077556' } }] } }), streamError], gatewayHeaders),
  'ok-stream-error-after-held-open': (res) => {
    res.sendDate = false;
    res.writeHead(200, gatewayHeaders.flat() as unknown as Record<string, string>);
    res.write(final.bytes);
    setTimeout(() => res.end(streamError), 900);
  },
};
Object.assign(behaviours, allowed);

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let notHttp: Awaited<ReturnType<typeof startNotHttp>>;
const taps: TestTap[] = [];

beforeAll(async () => {
  upstream = await startUpstream(behaviours);
  notHttp = await startNotHttp();
});
afterAll(async () => {
  for (const t of taps) await t.close();
  await upstream.close();
  await notHttp.close();
});

describe('tap mutants', () => {
  it('names a mutant for every requirement of the adk-stream part, each with a known id', () => {
    const adkStream = [...requirements.values()].filter((r) => r.part === 'adk-stream').map((r) => r.id).sort();
    expect([...new Set(tapMutants.flatMap((m) => m.kills))].filter((id) => id.startsWith('ADK-')).sort()).toEqual(adkStream);
    for (const m of tapMutants) for (const id of m.kills) expect(requirements.has(id), `${m.id} kills ${id}`).toBe(true);
  });

  // The tap-pair mutants need a gateway between two taps: tap/pair.test.ts runs them.
  it.each(tapMutants.filter((m) => pairMutantBreak(m.id) === undefined).map((m) => [m.id, m] as const))('%s is caught with exactly its requirement ids', async (id, mutant) => {
    const target = id === 'tap-upstream-not-http' ? notHttp.url : upstream.url;
    const tap = await startTestTap(target, mutant.role, { limits: { holdOpenMs: 300 } });
    taps.push(tap);
    const controller = new AbortController();
    const held = id === 'tap-upstream-holds-open';
    const response = rawRequest(`${tap.url}/run_sse`, { body: runBody(id), headers: clientHeaders, signal: controller.signal }).catch((error: Error) => ({ status: 0, error: error.message }));
    if (held) {
      // The finding comes while the stream is open (after 300 ms of silence); then the client leaves.
      // The margin is wide so a loaded machine's late timer still fires first.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      controller.abort();
    }
    await response;
    await tap.waitEnded(1);
    const summary = tap.ended[0]?.summary;
    expect(summary).toBeDefined();
    expect(failedOf(summary!)).toEqual([...mutant.kills].sort());
    if (held) expect(summary!.ending).toBe('client-closed');
  });

  it('a STREAM_ERROR frame the seeds allow is no GW-PASS-004 finding: after a cut before the answer, or after a stream held open past the answer', async () => {
    const tap = await startTestTap(upstream.url, 'gateway', { limits: { holdOpenMs: 300 } });
    taps.push(tap);
    for (const id of Object.keys(allowed)) await rawRequest(`${tap.url}/run_sse`, { body: runBody(id), headers: clientHeaders });
    await tap.waitEnded(2);
    expect(tap.ended.map((e) => findingsOf(e.summary))).toEqual([[], ['ADK-END-002 held-open']]);
    expect(tap.ended.map((e) => e.summary.judged.has('GW-PASS-004'))).toEqual([true, true]);
  });

  it('reports the exact codes of the adk-stream mutants', async () => {
    const tap = await startTestTap(upstream.url, 'adk', { limits: { holdOpenMs: 300 } });
    taps.push(tap);
    const ids = ['tap-upstream-unterminated-event', 'tap-upstream-crlf', 'tap-upstream-event-without-id', 'tap-upstream-snake-case-key', 'tap-upstream-python-spaced-error-in-js', 'tap-upstream-eof-after-call', 'tap-upstream-mixed-python-versions'];
    for (const id of ids) await rawRequest(`${tap.url}/run_sse`, { body: runBody(id), headers: clientHeaders });
    await tap.waitEnded(ids.length);
    expect(tap.ended.map((e) => findingsOf(e.summary))).toEqual([
      ['ADK-SSE-001 unterminated-event'],
      ['ADK-SSE-002 cr-line-end'],
      ['ADK-EVT-001 schema-invalid'],
      ['ADK-KEY-001 unknown-key'],
      ['ADK-ERR-001 error-line-bytes'],
      ['ADK-END-001 eof-without-answer'],
      ['ADK-KEY-001 mixed-versions'],
    ]);
    expect(tap.ended.at(-1)?.run.server).toBe('adk-python@2.x');
  });
});
