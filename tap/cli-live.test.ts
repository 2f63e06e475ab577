/**
 * `tap --otlp URL --ui`: the command wires the live outputs to the core. Real traffic through a
 * real tap in front of the mock: a correct run and a run whose request body is not a
 * RunAgentRequest. The OTLP receiver the test starts gets one span per run (the failing one with
 * status ERROR and its finding as a span event), and the live page's event stream replays both
 * runs, the finding in place, to a page that connects after they ended.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli/commands/tap.ts';
import { UsageError } from '../core/errors.ts';
import { createSseReader } from '../core/sse.ts';
import { startMock, type RunningMock } from '../mock-adk/index.ts';
import { createSession, rawRequest } from '../test/gateway-fixtures.ts';
import type { LiveEvent } from './live-events.ts';
import { clientHeaders } from './test-support.ts';
import { startTapCommand } from './command-test-support.ts';

type KeyValue = { key: string; value: { stringValue?: string; intValue?: number | string; boolValue?: boolean } };
type Span = { name: string; attributes: KeyValue[]; status: { code?: number }; events?: Array<{ name: string; attributes: KeyValue[] }> };
const attrs = (kvs: KeyValue[]) => Object.fromEntries(kvs.map((kv) => [kv.key, kv.value.stringValue ?? (kv.value.intValue !== undefined ? Number(kv.value.intValue) : kv.value.boolValue)]));

let mock: RunningMock;
let receiver: http.Server;
let receiverUrl = '';
const spans: Span[] = [];

beforeAll(async () => {
  mock = await startMock({});
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> };
      spans.push(...body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await mock.close();
  await new Promise((resolve) => receiver.close(resolve));
});

/** The page's event stream until `done` holds (bounded), as LiveEvents. */
function readEvents(url: string, done: (events: LiveEvent[]) => boolean): Promise<LiveEvent[]> {
  return new Promise((resolve, reject) => {
    const events: LiveEvent[] = [];
    const req = http.get(`${url}events`, (res) => {
      const reader = createSseReader({ onFrame: (f) => { if (f.event === undefined) events.push(JSON.parse(f.data) as LiveEvent); if (done(events)) { req.destroy(); resolve(events); } } });
      res.on('data', (c: Buffer) => reader.feed(c));
    });
    req.on('error', (e) => { if (!done(events)) reject(e); });
    setTimeout(() => { req.destroy(); reject(new Error(`the live page sent ${events.length} events, not all of them, within 10 s`)); }, 10_000).unref();
  });
}

describe('adk-conformance tap --otlp --ui', () => {
  it('exports each judged run as a span and shows it on the live page with its finding in place', async () => {
    const livePage = /^live page on (\S+)/;
    const command = await startTapCommand(['--upstream', mock.url, '--role', 'adk', '--port', '0', '--ui', '--ui-port', '0', '--otlp', receiverUrl, '--name', 'front', '--out', mkdtempSync(join(tmpdir(), 'tap-live-'))], [livePage]);
    const { url: tap, lines, exit, stop } = command;
    const ui = command.found(livePage) as string;
    await createSession(tap, 'plain_text', 'u1', 'live-1');
    await rawRequest(`${tap}/run_sse`, { body: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 'live-1', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }), headers: clientHeaders });
    await rawRequest(`${tap}/run_sse`, { body: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 'live-1' }), headers: clientHeaders });

    // A page that connects after both runs ended is sent them.
    const events = await readEvents(ui, (e) => e.filter((x) => x.kind === 'run-end').length === 2);
    const ends = events.filter((e): e is Extract<LiveEvent, { kind: 'run-end' }> => e.kind === 'run-end');
    expect(ends.map((e) => [e.runId, e.ending, e.status, e.verdict])).toEqual([['front-run-0001', 'complete', 200, 'passed'], ['front-run-0002', 'complete', 200, 'failed']]);
    expect(events.filter((e) => e.kind === 'run-start').map((e) => (e as { tap: string; path: string }).tap + ' ' + (e as { path: string }).path)).toEqual(['front /run_sse', 'front /run_sse']);
    expect(events.filter((e) => e.kind === 'frame' && e.runId === 'front-run-0001')).toHaveLength(1);
    const findings = events.filter((e): e is Extract<LiveEvent, { kind: 'finding' }> => e.kind === 'finding');
    expect(findings.map((f) => [f.runId, f.finding.requirement, f.finding.code])).toEqual([['front-run-0002', 'CLI-REQ-003', 'body-schema']]);

    stop('SIGINT');
    // The failing run's finding is the client's (CLI-REQ-002): with --role adk it stays in the run, outside the server's verdict.
    expect(await exit).toBe(0);
    // close() flushed the exporter: one span per run, the failing one with its finding.
    const byRun = new Map(spans.map((s) => [attrs(s.attributes)['adk_conformance.run.id'], s]));
    expect([...byRun.keys()].sort()).toEqual(['front-run-0001', 'front-run-0002']);
    expect(spans.map((s) => s.name)).toEqual(['adk-conformance.tap.run', 'adk-conformance.tap.run']);
    const failing = [...byRun.values()].find((s) => s.status.code === 2);
    expect(failing?.events?.map((e) => attrs(e.attributes))).toEqual([expect.objectContaining({ 'adk_conformance.finding.requirement': 'CLI-REQ-003', 'adk_conformance.finding.code': 'body-schema' })]);
    expect(spans.filter((s) => s.status.code === 2)).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('err:'))).toEqual([]);
  });

  it('refuses --ui-port without --ui and an --otlp that is not an http URL (usage errors)', async () => {
    const io = { out: () => {}, err: () => {}, stopSignal: new Promise<string>(() => {}) };
    await expect(run(['--upstream', mock.url, '--ui-port', '0'], io)).rejects.toThrow(UsageError);
    await expect(run(['--upstream', mock.url, '--ui-port', '0'], io)).rejects.toThrow(/--ui-port N needs --ui/);
    await expect(run(['--upstream', mock.url, '--otlp', 'collector:4318'], io)).rejects.toThrow(/--otlp must be the http\(s\) URL of an OTLP\/HTTP collector/);
  });
});
