/**
 * The tap end to end on 127.0.0.1: correct traffic through a real tap in front of the mock and in
 * front of the reference gateway (no finding, the client's bytes identical to the upstream's), bad
 * input (not HTTP, a non-SSE body, a 5 MB event, invalid UTF-8) that gives a finding while the tap
 * keeps serving, a judge that throws while every byte still arrives, the ends of a run, and
 * --save-failing's scenario replayed by the mock to the same finding.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock-adk/index.ts';
import { startGateway, type RunningGateway } from '../reference-impl/gateway/start.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { createSession, rawRequest, type RawResponse } from '../test/gateway-fixtures.ts';
import { clientHeaders, failedOf, findingsOf, jsFinalFrame, jsHeaders, runBody, startNotHttp, startTestTap, startUpstream, stream, type TestTap } from './test-support.ts';

const final = jsFinalFrame();
const withoutDate = (r: RawResponse) => r.rawHeaders.filter(([n]) => n.toLowerCase() !== 'date');
const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => { for (const c of cleanup.reverse()) await c(); });

async function tapFor(upstream: string, role: 'adk' | 'gateway', options: Parameters<typeof startTestTap>[2] = {}): Promise<TestTap> {
  const tap = await startTestTap(upstream, role, options);
  cleanup.push(tap.close);
  return tap;
}

describe('correct traffic', () => {
  let mock: RunningMock;
  let gateway: RunningGateway;
  beforeAll(async () => {
    mock = await startMock({});
    gateway = await startGateway({ config: { auth: { mode: 'off' }, canonicalStreamEnabled: true, upstreamUrl: mock.url } });
    cleanup.push(() => mock.close(), () => gateway.close());
  });

  it('in front of the mock: no finding, and the client gets the mock\'s exact status, headers and bytes', async () => {
    const tap = await tapFor(mock.url, 'adk');
    const cases = [['plain_text', false], ['plain_text', true], ['cedar_creek_briefing', false], ['parallel_delegation', true]] as const;
    let n = 0;
    for (const [app, streaming] of cases) {
      const sid = `ok-${n++}`;
      await createSession(tap.url, app, 'u1', sid);
      const body = JSON.stringify({ appName: app, userId: 'u1', sessionId: sid, newMessage: { role: 'user', parts: [{ text: 'Brief me' }] }, streaming });
      const through = await rawRequest(`${tap.url}/run_sse`, { body, headers: clientHeaders });
      const direct = await rawRequest(`${mock.url}/run_sse`, { body, headers: clientHeaders });
      expect(through.status).toBe(200);
      expect(through.body.length).toBeGreaterThan(0);
      expect(Buffer.compare(through.body, direct.body)).toBe(0);
      expect(withoutDate(through)).toEqual(withoutDate(direct));
    }
    await tap.waitEnded(cases.length * 2);
    const runs = tap.ended.filter((e) => e.run.kind === 'run');
    expect(runs).toHaveLength(cases.length);
    expect(runs.map((e) => findingsOf(e.summary))).toEqual(cases.map(() => []));
    expect(runs.map((e) => e.run.dialect)).toEqual(['adk-js', 'adk-js', 'adk-python', 'adk-js']);
    expect(tap.collector.result()?.verdict).toBe('fully compliant');
  });

  it('in front of the reference gateway: no finding, and the client gets the gateway\'s exact bytes', async () => {
    const tap = await tapFor(gateway.url, 'gateway');
    await createSession(mock.url, 'cedar_creek_briefing', 'u1', 'gw-1');
    await createSession(mock.url, 'cedar_creek_briefing', 'u1', 'gw-2');
    const body = (sid: string) => JSON.stringify({ appName: 'cedar_creek_briefing', userId: 'u1', sessionId: sid, newMessage: { role: 'user', parts: [{ text: 'Brief me' }] }, streaming: false });
    const through = await rawRequest(`${tap.url}/run_sse`, { body: body('gw-1'), headers: clientHeaders });
    const direct = await rawRequest(`${gateway.url}/run_sse`, { body: body('gw-1'), headers: clientHeaders });
    expect(through.status).toBe(200);
    expect(Buffer.compare(through.body, direct.body)).toBe(0);
    expect(withoutDate(through)).toEqual(withoutDate(direct));
    await tap.waitEnded(1);
    expect(findingsOf(tap.ended[0]!.summary)).toEqual([]);
    expect([...tap.ended[0]!.summary.judged.keys()].sort()).toEqual(['ADK-END-001', 'ADK-END-002', 'ADK-EVT-001', 'ADK-HTTP-001', 'ADK-KEY-001', 'ADK-SSE-001', 'ADK-SSE-002', 'CLI-REQ-001', 'CLI-REQ-003', 'GW-HDR-001', 'GW-HDR-002', 'GW-HDR-003', 'GW-HDR-004', 'GW-PASS-004']);
  });

  it('judges the gateway\'s upstream-status frame: a session the mock lacks gives GW-ERR-001\'s frame with no finding', async () => {
    const tap = await tapFor(gateway.url, 'gateway');
    await rawRequest(`${tap.url}/run_sse`, { body: runBody('no-such-session', 'cedar_creek_briefing'), headers: clientHeaders });
    await tap.waitEnded(1);
    const { summary } = tap.ended[0]!;
    expect(findingsOf(summary)).toEqual([]);
    expect(summary.judged.has('GW-ERR-001')).toBe(true);
    expect(summary.judged.has('GW-ERR-005')).toBe(true);
  });
});

describe('bad input: a finding each, and the tap keeps serving', () => {
  const big = `data: ${JSON.stringify({ ...final.event, id: 'Big0Big0', content: { role: 'model', parts: [{ text: 'x'.repeat(5 * 1024 * 1024) }] }, finishReason: undefined })}\n\n`;
  const invalidUtf8 = Buffer.concat([Buffer.from(final.bytes.slice(0, final.bytes.indexOf('The Cedar'))), Buffer.from([0xc3, 0x28]), Buffer.from(final.bytes.slice(final.bytes.indexOf('The Cedar')))]);
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    upstream = await startUpstream({
      good: stream([final.bytes]),
      html: stream(['<html><body>Bad Gateway</body></html>'], [['Content-Type', 'text/html']]),
      big: stream([big, final.bytes]),
      utf8: stream([invalidUtf8]),
      cut: stream([final.bytes.slice(0, 40)], jsHeaders, 'destroy'),
    });
    cleanup.push(() => upstream.close());
  });

  async function oneThenGood(sessionId: string): Promise<{ bad: RawResponse; tap: TestTap }> {
    const tap = await tapFor(upstream.url, 'adk');
    const bad = await rawRequest(`${tap.url}/run_sse`, { body: runBody(sessionId), headers: clientHeaders });
    const good = await rawRequest(`${tap.url}/run_sse`, { body: runBody('good'), headers: clientHeaders });
    expect(good.status).toBe(200);
    expect(good.body.toString('utf8')).toBe(final.bytes);
    await tap.waitEnded(2);
    expect(findingsOf(tap.ended[1]!.summary)).toEqual([]);
    return { bad, tap };
  }

  it('a non-SSE body on /run_sse is ADK-SSE-001 not-event-stream, forwarded unchanged', async () => {
    const { bad, tap } = await oneThenGood('html');
    expect(bad.body.toString()).toBe('<html><body>Bad Gateway</body></html>');
    expect(findingsOf(tap.ended[0]!.summary)).toEqual(['ADK-SSE-001 not-event-stream']);
  });

  it('a 5 MB event is forwarded whole, reported over the judging limit, and the event after it is judged', async () => {
    const { bad, tap } = await oneThenGood('big');
    expect(bad.body.toString('utf8')).toBe(big + final.bytes);
    const { summary } = tap.ended[0]!;
    expect(findingsOf(summary)).toEqual(['ADK-SSE-001 frame-over-limit']);
    expect(summary.frames).toBe(1);
    expect(summary.judged.get('ADK-SSE-001')?.[0]?.message).toMatch(/past the tap's judging limit of 1048576 bytes \(--max-frame-bytes\); its bytes were forwarded unchanged/);
  });

  it('invalid UTF-8 is ADK-SSE-001 invalid-utf8, and the bytes pass unchanged', async () => {
    const { bad, tap } = await oneThenGood('utf8');
    expect(Buffer.compare(bad.body, invalidUtf8)).toBe(0);
    expect(findingsOf(tap.ended[0]!.summary)).toEqual(['ADK-SSE-001 invalid-utf8']);
  });

  it('an upstream that breaks mid-stream is ADK-END-001 stream-cut, and the client\'s connection is broken too', async () => {
    const { bad, tap } = await oneThenGood('cut');
    expect(bad.error).toBeDefined();
    expect(bad.body.toString()).toBe(final.bytes.slice(0, 40));
    expect(tap.ended[0]!.summary.ending).toBe('upstream-cut');
    expect(findingsOf(tap.ended[0]!.summary)).toEqual(['ADK-END-001 stream-cut', 'ADK-SSE-001 unterminated-event']);
  });

  it('an upstream that is not HTTP gets the client a 502 TAP_UPSTREAM_NOT_HTTP and an ADK-HTTP-001 finding, request after request', async () => {
    const notHttp = await startNotHttp();
    cleanup.push(notHttp.close);
    const tap = await tapFor(notHttp.url, 'adk');
    for (const sid of ['n1', 'n2']) {
      const r = await rawRequest(`${tap.url}/run_sse`, { body: runBody(sid), headers: clientHeaders });
      expect(r.status).toBe(502);
      expect(JSON.parse(r.body.toString()) as unknown).toMatchObject({ code: 'TAP_UPSTREAM_NOT_HTTP' });
    }
    await tap.waitEnded(2);
    expect(tap.ended.map((e) => findingsOf(e.summary))).toEqual([['ADK-HTTP-001 not-http'], ['ADK-HTTP-001 not-http']]);
  });

  it('an https:// upstream that serves plain HTTP gets the client a 502 TAP_UPSTREAM_NOT_HTTP that says to use http://', async () => {
    const plain = await startUpstream({});
    cleanup.push(plain.close);
    const tls = plain.url.replace('http://', 'https://');
    const tap = await tapFor(tls, 'adk');
    const r = await rawRequest(`${tap.url}/run_sse`, { body: runBody('t1'), headers: clientHeaders });
    expect(r.status).toBe(502);
    const answer = JSON.parse(r.body.toString()) as { code: string; error: string };
    expect(answer.code).toBe('TAP_UPSTREAM_NOT_HTTP');
    expect(answer.error).toContain(`the upstream did not answer TLS (if it serves plain HTTP, use ${plain.url})`);
  });

  it('a client that leaves mid-stream is judged as such and the tap closes the upstream request', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => { upstreamClosed = resolve; });
    const held = await startUpstream({ held: (res) => { res.writeHead(200, jsHeaders.flat() as unknown as Record<string, string>); res.write(final.bytes.slice(0, 30)); res.on('close', () => upstreamClosed()); } });
    cleanup.push(held.close);
    const tap = await tapFor(held.url, 'adk');
    const controller = new AbortController();
    const pending = rawRequest(`${tap.url}/run_sse`, { body: runBody('held'), headers: clientHeaders, signal: controller.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await pending;
    await closed;
    await tap.waitEnded(1);
    expect(tap.ended[0]!.summary.ending).toBe('client-closed');
    expect(findingsOf(tap.ended[0]!.summary)).toEqual([]);
    expect(tap.ended[0]!.summary.judged.has('ADK-END-001')).toBe(false);
  });
});

describe('a judge that throws', () => {
  it('is a judge-error finding, and the client still gets every byte', async () => {
    const mock = await startMock({});
    cleanup.push(() => mock.close());
    const tap = await tapFor(mock.url, 'adk', { judges: [{ name: 'exploding', requirement: 'ADK-EVT-001', frame: () => { throw new Error('kaboom'); } }] });
    await createSession(mock.url, 'plain_text', 'u1', 'thrown');
    const body = JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 'thrown', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, streaming: true });
    const through = await rawRequest(`${tap.url}/run_sse`, { body, headers: clientHeaders });
    const direct = await rawRequest(`${mock.url}/run_sse`, { body, headers: clientHeaders });
    expect(Buffer.compare(through.body, direct.body)).toBe(0);
    await tap.waitEnded(1);
    const { summary } = tap.ended[0]!;
    expect(failedOf(summary)).toEqual(['ADK-EVT-001']);
    expect(new Set(findingsOf(summary))).toEqual(new Set(['ADK-EVT-001 judge-error']));
    expect(summary.judged.get('ADK-EVT-001')).toHaveLength(summary.frames);
    expect(summary.judged.get('ADK-EVT-001')?.[0]?.message).toMatch(/the tap's exploding judge threw \(kaboom\); the bytes were forwarded unchanged/);
  });
});

describe('--save-failing', () => {
  it('writes a failing run as a scenario with no credential, which the mock replays to the same finding', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tap-save-'));
    const callEvent = { ...final.event, content: { role: 'model', parts: [{ text: 'calling with Bearer sk-live-abcdefghijklmnopqrstu' }, { functionCall: { name: 'get_fire_perimeter', args: { fire_name: 'Cedar Creek' }, id: 'adk-41af49b4-18ff-443c-9f25-a54f11077556' } }] } };
    const upstream = await startUpstream({ s1: stream([`data: ${JSON.stringify(callEvent)}\n\n`], [...jsHeaders, ['Set-Cookie', 'session=hunter2-secret']]) });
    cleanup.push(upstream.close);
    const tap = await tapFor(upstream.url, 'adk', { saveDir: dir });
    await rawRequest(`${tap.url}/run_sse`, { body: runBody('s1', 'my_agent'), headers: { ...clientHeaders, authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl' } });
    await tap.waitEnded(1);
    expect(findingsOf(tap.ended[0]!.summary)).toEqual(['ADK-END-001 eof-without-answer']);
    const files = readdirSync(dir);
    expect(files).toEqual(['tap_my_agent_0001.json']);
    const text = readFileSync(join(dir, files[0]!), 'utf8');
    for (const secret of ['sk-live-abcdefghijklmnopqrstu', 'hunter2-secret', 'eyJhbGciOiJIUzI1NiJ9', 'Set-Cookie']) expect(text).not.toContain(secret);

    // mock --scenarios DIR loads it; the same run through a tap gives the same finding.
    const loaded = loadScenarios(dir);
    expect(loaded.errors).toEqual([]);
    const mock = await startMock({ scenarios: loaded.scenarios });
    cleanup.push(() => mock.close());
    const replayTap = await tapFor(mock.url, 'adk');
    const scenario = loaded.scenarios[0]!;
    await createSession(mock.url, scenario.id, scenario.session.userId, scenario.session.sessionId);
    await rawRequest(`${replayTap.url}/run_sse`, { body: JSON.stringify({ appName: scenario.id, userId: scenario.session.userId, sessionId: scenario.session.sessionId, newMessage: { role: 'user', parts: [{ text: 'Brief me on Cedar Creek' }] }, streaming: false }), headers: clientHeaders });
    await replayTap.waitEnded(1);
    const replayed = replayTap.ended[0]!;
    expect(findingsOf(replayed.summary)).toEqual(['ADK-END-001 eof-without-answer']);
  });
});
