import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, settledWithin } from './gateway-http.ts';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('settledWithin', () => {
  it('says whether the work settled in time and leaves no timer behind (the CLI exits at once after a run)', async () => {
    const before = timers();
    expect(await settledWithin(Promise.resolve(), 60_000)).toBe(true);
    expect(await settledWithin(Promise.reject(new Error('x')), 60_000)).toBe(true);
    expect(timers()).toBe(before);
    expect(await settledWithin(new Promise(() => {}), 20)).toBe(false);
  });
});

describe('exchange', () => {
  let server: http.Server;
  let url = '';
  beforeAll(async () => {
    server = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.write('data: 1\n\n'); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/run_sse`;
  });
  afterAll(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

  it('keeps the first chunk and arms no timer when onFirstBytes ends the exchange', async () => {
    const leave = new AbortController();
    const before = timers();
    const x = await exchange(url, { body: '{}', deadlineMs: 60_000, signal: leave.signal, onFirstBytes: () => leave.abort() });
    expect(x.ending).toBe('aborted');
    expect(Buffer.from(x.body).toString()).toBe('data: 1\n\n');
    expect(x.arrivals).toHaveLength(1);
    expect(timers()).toBe(before);
  });
});
