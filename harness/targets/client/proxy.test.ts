import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { openSession, plannedBytes, scenarioRequest } from './capture.ts';
import { startClientProxy, writeAsPlanned } from './proxy.ts';

const { scenarios } = loadScenarios();
let mock: RunningMock;

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

describe('the client proxy hands a module the mock\'s body in the mock\'s writes', () => {
  it('framing_huge_event: a fetch reading through it gets each of its writes, joined to 32 KiB at most (capture.ts joinedWrites), in a read of its own', async () => {
    const s = scenarios.find((x) => x.id === 'framing_huge_event')!;
    const { userId, sessionId } = await openSession(mock.url, s, new AbortController().signal);
    const writes = (streaming: boolean) => plannedBytes(s, userId, sessionId, streaming).chunks.filter((c) => c.byteLength > 0);
    const proxy = await startClientProxy({ mockUrl: mock.url, dialect: s.dialect, heldOpenBytes: () => undefined, writes, wholeWrites: true });
    try {
      const response = await fetch(`${proxy.url}/run_sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(scenarioRequest(s, userId, sessionId)) });
      const reader = response.body!.getReader();
      const reads: number[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) reads.push(r.value.byteLength);
      expect(reads).toEqual(writes(false).map((w) => w.byteLength));
      expect(Math.max(...reads)).toBeLessThanOrEqual(32 * 1024);
      expect(reads.length).toBeGreaterThan(90);
    } finally {
      await proxy.close();
    }
  });

  it('writes each planned write in a turn of its own when the upstream\'s reads queue up while it waits on a turn', async () => {
    // An upstream whose first read holds two planned writes (the proxy takes a turn before each), then
    // one byte a turn: those reach the proxy's reader while it waits, queue up, and are read in one turn.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(letters.slice(0, 2));
      let i = 2;
      const next = () => { if (i < letters.length) { res.write(letters[i++]); setImmediate(next); } else res.end(); };
      setImmediate(next);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const writes = () => [...letters].map((c) => new TextEncoder().encode(c));
    const proxy = await startClientProxy({ mockUrl: url, dialect: 'adk-js', heldOpenBytes: () => undefined, writes });
    try {
      const body = JSON.stringify({ appName: 'a', userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, streaming: false });
      const response = await fetch(`${proxy.url}/run_sse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const reader = response.body!.getReader();
      const reads: string[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) reads.push(new TextDecoder().decode(r.value));
      expect(reads).toEqual([...letters]);
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });

  it('splits a read at the plan\'s writes, joins nothing, and passes bytes that are not the plan on as they came', () => {
    const b = (s: string) => new TextEncoder().encode(s);
    const text = (pieces: Uint8Array[]) => pieces.map((p) => new TextDecoder().decode(p));
    const follow = writeAsPlanned([b('ab'), b('cde'), b('f'), b('gh')]);
    expect(text(follow(b('abc')))).toEqual(['ab', 'c']);
    expect(text(follow(b('def')))).toEqual(['de', 'f']);
    expect(text(follow(b('gX')))).toEqual(['g', 'X']);
    expect(text(follow(b('yz')))).toEqual(['yz']);
    expect(text(writeAsPlanned(undefined)(b('abc')))).toEqual(['abc']);
  });

  it('whole: hands each write on once all its reads came, and what an unfinished write holds at the end', () => {
    const b = (s: string) => new TextEncoder().encode(s);
    const text = (pieces: Uint8Array[]) => pieces.map((p) => new TextDecoder().decode(p));
    const follow = writeAsPlanned([b('abcd'), b('ef'), b('ghij')], true);
    expect(text(follow(b('a')))).toEqual([]);
    expect(text(follow(b('bc')))).toEqual([]);
    expect(text(follow(b('de')))).toEqual(['abcd']);
    expect(text(follow(b('fgh')))).toEqual(['ef']);
    expect(text(follow.rest())).toEqual(['gh']);
    const differs = writeAsPlanned([b('abcd')], true);
    expect(text(differs(b('ab')))).toEqual([]);
    expect(text(differs(b('cX')))).toEqual(['abc', 'X']);
  });
});
