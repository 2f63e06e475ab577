import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Finding } from '../harness/model.ts';
import { packageVersion } from '../harness/version.ts';
import type { LiveEvent } from './live-events.ts';
import { createOtlpSink, maxValueChars, tracesEndpoint } from './otlp-sink.ts';

/** OTLP/JSON AnyValue as a plain value. */
type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };
type OtlpSpan = {
  traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number;
  startTimeUnixNano: string | number; endTimeUnixNano: string | number;
  attributes: KeyValue[]; events?: Array<{ name: string; timeUnixNano: string | number; attributes: KeyValue[] }>;
  status: { code?: number; message?: string };
};
type OtlpBody = { resourceSpans: Array<{ resource: { attributes: KeyValue[] }; scopeSpans: Array<{ scope: { name: string; version?: string }; spans: OtlpSpan[] }> }> };

const plain = (v: AnyValue): unknown => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.boolValue ?? v.doubleValue);
const attrs = (kvs: KeyValue[]) => Object.fromEntries(kvs.map((kv) => [kv.key, plain(kv.value)]));

/** A local OTLP/HTTP receiver: what an OpenTelemetry Collector's otlp receiver accepts on POST /v1/traces. */
function startReceiver() {
  const bodies: OtlpBody[] = [];
  const requests: Array<{ method: string; url: string; contentType: string }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', contentType: String(req.headers['content-type']) });
      if (req.method !== 'POST' || req.url !== '/v1/traces') { res.writeHead(404).end(); return; }
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return {
    bodies, requests,
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    spans: () => bodies.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))),
  };
}

const t0 = 1_700_000_000_000; // fixed epoch ms, earlier than the process start on purpose (see hrTime in otlp-sink.ts)
const nanos = (ms: number) => String(BigInt(ms) * 1_000_000n);

const schemaFinding: Finding = { requirement: 'ADK-STREAM-003', code: 'schema-invalid', path: 'frame[1]/content', message: 'content.parts must be an array', expected: { type: 'array' }, actual: 'text' };
const endFinding: Finding = { requirement: 'ADK-STREAM-010', code: 'no-final-event', path: 'end', message: 'the stream ended without a partial:false event', expected: 'a final event', actual: { frames: 2 } };

function passingRun(): LiveEvent[] {
  return [
    { kind: 'run-start', runId: 'tap-run-0001', at: t0, method: 'POST', path: '/run_sse?trace=1', tap: 'front', dialect: 'adk-js' },
    { kind: 'frame', runId: 'tap-run-0001', index: 0, at: t0 + 10, bytes: 40, data: '{"author":"a","partial":false}', findings: [] },
    { kind: 'run-end', runId: 'tap-run-0001', at: t0 + 25, ending: 'complete', status: 200, frames: 1, findings: 0, verdict: 'passed' },
  ];
}

function failingRun(): LiveEvent[] {
  return [
    { kind: 'run-start', runId: 'tap-run-0002', at: t0 + 100, method: 'POST', path: '/run_sse', tap: 'back' },
    { kind: 'frame', runId: 'tap-run-0002', index: 0, at: t0 + 110, bytes: 30, data: '{"author":"a","partial":true}', findings: [] },
    { kind: 'frame', runId: 'tap-run-0002', index: 1, at: t0 + 120, bytes: 28, data: '{"content":"text"}', findings: [schemaFinding] },
    { kind: 'finding', runId: 'tap-run-0002', at: t0 + 130, finding: endFinding },
    { kind: 'run-end', runId: 'tap-run-0002', at: t0 + 131, ending: 'upstream-disconnected', status: 200, frames: 2, findings: 2, verdict: 'failed' },
  ];
}

/** Wait for a condition with a bound, never a fixed sleep. */
async function until(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('createOtlpSink', () => {
  const receiver = startReceiver();
  let base = '';
  beforeAll(async () => { base = await receiver.listen(); });
  afterAll(() => receiver.close());
  beforeEach(() => { receiver.bodies.length = 0; receiver.requests.length = 0; });

  it('exports a passing run and a failing run as one span each, with every finding as a span event', async () => {
    const errors: Error[] = [];
    const sink = createOtlpSink({ url: base, serviceName: 'tap-under-test', onError: (e) => errors.push(e) });
    // Interleaved, as concurrent runs arrive.
    const [a, b] = [passingRun(), failingRun()];
    for (const e of [a[0], b[0], a[1], b[1], b[2], a[2], b[3], b[4]]) sink.publish(e!);
    await sink.close();

    expect(errors).toEqual([]);
    expect(receiver.requests.every((r) => r.method === 'POST' && r.url === '/v1/traces' && r.contentType === 'application/json')).toBe(true);
    const [body] = receiver.bodies;
    const resource = attrs(body?.resourceSpans[0]?.resource.attributes ?? []);
    expect(resource).toMatchObject({ 'service.name': 'tap-under-test', 'service.version': packageVersion(), 'telemetry.sdk.language': 'nodejs' });
    expect(body?.resourceSpans[0]?.scopeSpans[0]?.scope).toMatchObject({ name: 'adk-conformance/tap', version: packageVersion() });

    const spans = receiver.spans().sort((x, y) => Number(x.startTimeUnixNano) - Number(y.startTimeUnixNano));
    expect(spans).toHaveLength(2);
    const view = spans.map((s) => ({
      name: s.name, kind: s.kind, root: !s.parentSpanId, start: String(s.startTimeUnixNano), end: String(s.endTimeUnixNano),
      attributes: attrs(s.attributes), status: s.status,
      events: (s.events ?? []).map((e) => ({ name: e.name, time: String(e.timeUnixNano), attributes: attrs(e.attributes) })),
    }));
    expect(view[0]).toEqual({
      name: 'adk-conformance.tap.run', kind: 1, root: true, start: nanos(t0), end: nanos(t0 + 25),
      attributes: {
        'adk_conformance.run.id': 'tap-run-0001', 'http.request.method': 'POST', 'url.path': '/run_sse', 'adk_conformance.tap.name': 'front',
        'adk_conformance.run.dialect': 'adk-js', 'adk_conformance.run.ending': 'complete', 'http.response.status_code': 200,
        'adk_conformance.run.frames': 1, 'adk_conformance.run.findings': 0, 'adk_conformance.run.verdict': 'passed',
      },
      status: { code: 1 },
      events: [],
    });
    expect(view[1]).toEqual({
      name: 'adk-conformance.tap.run', kind: 1, root: true, start: nanos(t0 + 100), end: nanos(t0 + 131),
      attributes: {
        'adk_conformance.run.id': 'tap-run-0002', 'http.request.method': 'POST', 'url.path': '/run_sse', 'adk_conformance.tap.name': 'back',
        'adk_conformance.run.ending': 'upstream-disconnected', 'http.response.status_code': 200,
        'adk_conformance.run.frames': 2, 'adk_conformance.run.findings': 2, 'adk_conformance.run.verdict': 'failed',
      },
      status: { code: 2, message: '2 findings' },
      events: [
        { name: 'adk-conformance.finding', time: nanos(t0 + 120), attributes: {
          'adk_conformance.finding.requirement': 'ADK-STREAM-003', 'adk_conformance.finding.code': 'schema-invalid', 'adk_conformance.finding.path': 'frame[1]/content',
          'adk_conformance.finding.message': 'content.parts must be an array', 'adk_conformance.finding.expected': '{"type":"array"}', 'adk_conformance.finding.actual': '"text"',
          'adk_conformance.frame.index': 1,
        } },
        { name: 'adk-conformance.finding', time: nanos(t0 + 130), attributes: {
          'adk_conformance.finding.requirement': 'ADK-STREAM-010', 'adk_conformance.finding.code': 'no-final-event', 'adk_conformance.finding.path': 'end',
          'adk_conformance.finding.message': 'the stream ended without a partial:false event', 'adk_conformance.finding.expected': '"a final event"', 'adk_conformance.finding.actual': '{"frames":2}',
        } },
      ],
    });
    // Each run is its own trace.
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(2);
  });

  it('caps findings per span and their values, counting what it left out', async () => {
    const sink = createOtlpSink({ url: `${base}/v1/traces`, onError: () => undefined, maxFindingsPerRun: 1 });
    const huge: Finding = { ...schemaFinding, actual: 'x'.repeat(5000) };
    sink.publish({ kind: 'run-start', runId: 'r', at: t0, method: 'POST', path: '/run_sse', tap: 'front' });
    sink.publish({ kind: 'frame', runId: 'r', index: 0, at: t0 + 1, bytes: 1, data: '{}', findings: [huge, schemaFinding] });
    sink.publish({ kind: 'finding', runId: 'r', at: t0 + 2, finding: endFinding });
    sink.publish({ kind: 'run-end', runId: 'r', at: t0 + 3, ending: 'complete', frames: 1, findings: 3, verdict: 'failed' });
    await sink.close();
    const [span] = receiver.spans();
    expect(span?.events).toHaveLength(1);
    expect(attrs(span?.attributes ?? [])['adk_conformance.run.findings_not_exported']).toBe(2);
    expect(attrs(span?.attributes ?? [])['http.response.status_code']).toBeUndefined();
    const actual = String(attrs(span?.events?.[0]?.attributes ?? [])['adk_conformance.finding.actual']);
    expect(actual.startsWith(`"${'x'.repeat(maxValueChars - 1)}… [cut: 5002 characters]`)).toBe(true);
    expect(sink.stats()).toMatchObject({ exportedRuns: 1, droppedFindings: 2 });
  });

  it('exports a run still open at close as unfinished, and ignores events of runs it never saw', async () => {
    const errors: Error[] = [];
    const sink = createOtlpSink({ url: base, onError: (e) => errors.push(e) });
    sink.publish({ kind: 'frame', runId: 'ghost', index: 0, at: t0, bytes: 1, data: '{}', findings: [schemaFinding] });
    sink.publish({ kind: 'run-end', runId: 'ghost', at: t0, ending: 'complete', frames: 1, findings: 1, verdict: 'failed' });
    sink.publish({ kind: 'run-start', runId: 'open', at: t0, method: 'POST', path: '/run_sse', tap: 'front' });
    await sink.close();
    sink.publish({ kind: 'run-start', runId: 'late', at: t0, method: 'POST', path: '/run_sse', tap: 'front' });
    await sink.close();
    expect(receiver.spans().map((s) => [s.name, attrs(s.attributes)['adk_conformance.run.ending']])).toEqual([['adk-conformance.tap.run', 'unfinished']]);
    expect(sink.stats()).toMatchObject({ exportedRuns: 1, ignoredEvents: 3 });
    expect(errors).toEqual([]);
  });

  it('a receiver that is down costs one onError call and never a throw', async () => {
    const down = startReceiver();
    const url = await down.listen();
    await down.close(); // the port is now closed: connections are refused
    const errors: Error[] = [];
    const sink = createOtlpSink({ url, onError: (e) => errors.push(e), timeoutMs: 200, scheduledDelayMs: 20 });
    for (const e of passingRun()) expect(() => sink.publish(e)).not.toThrow();
    await until('the first export failure', () => errors.length > 0);
    for (const e of failingRun()) expect(() => sink.publish(e)).not.toThrow();
    await expect(sink.close()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain(`OTLP export to ${url}/v1/traces: failed`);
    expect(errors[0]?.message).toContain('OTLP/HTTP receiver');
    expect(sink.stats()).toMatchObject({ exportedRuns: 0, failedRuns: 2, problems: { export: 2, overflow: 0, internal: 0 } });
  });

  it('an onError that throws never reaches publish\'s caller', async () => {
    const sink = createOtlpSink({ url: base, onError: () => { throw new Error('broken handler'); }, maxOpenRuns: 1 });
    sink.publish({ kind: 'run-start', runId: 'a', at: t0, method: 'POST', path: '/run_sse', tap: 'front' });
    expect(() => sink.publish({ kind: 'run-start', runId: 'b', at: t0, method: 'POST', path: '/run_sse', tap: 'front' })).not.toThrow();
    await sink.close();
    expect(sink.stats()).toMatchObject({ droppedRuns: 1, problems: { overflow: 1 } });
  });

  it('configuration errors are thrown at once and say what to pass', () => {
    expect(() => createOtlpSink({ url: 'collector:4318', onError: () => undefined })).toThrow(/OTLP\/HTTP only.*http:\/\/127\.0\.0\.1:4318/);
    expect(() => createOtlpSink({ url: 'not a url', onError: () => undefined })).toThrow(/pass e\.g\. http:\/\/127\.0\.0\.1:4318/);
    expect(() => createOtlpSink({ url: base, onError: () => undefined, maxFindingsPerRun: 0 })).toThrow(/maxFindingsPerRun must be an integer from 1/);
    expect(tracesEndpoint('http://127.0.0.1:4318')).toBe('http://127.0.0.1:4318/v1/traces');
    expect(tracesEndpoint('https://otel.example/custom/traces')).toBe('https://otel.example/custom/traces');
  });
});
