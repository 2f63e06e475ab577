import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { exchange, settledWithin } from './http.ts';

/**
 * The timers `work` started that are still pending when it settled (neither fired nor cleared): a
 * pending timer keeps the CLI's event loop alive. Only this code's timers are counted, not the
 * process's (another test's timer may end meanwhile).
 */
async function pendingTimersOf<T>(work: () => Promise<T>): Promise<{ value: T; pending: number }> {
  const started: NodeJS.Timeout[] = [];
  const original = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
    const handle = original(fn, ms);
    started.push(handle);
    return handle;
  }) as typeof setTimeout);
  const value = await work();
  vi.restoreAllMocks();
  // A fired or cleared Node timer is destroyed.
  return { value, pending: started.filter((t) => !(t as unknown as { _destroyed: boolean })._destroyed).length };
}
afterEach(() => { vi.restoreAllMocks(); });

describe('settledWithin', () => {
  it('says whether the work settled in time and leaves no timer behind (the CLI exits at once after a run)', async () => {
    expect(await pendingTimersOf(() => settledWithin(Promise.resolve(), 60_000))).toEqual({ value: true, pending: 0 });
    expect(await pendingTimersOf(() => settledWithin(Promise.reject(new Error('x')), 60_000))).toEqual({ value: true, pending: 0 });
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
    const { value: x, pending } = await pendingTimersOf(() => exchange(url, { body: '{}', deadlineMs: 60_000, signal: leave.signal, onFirstBytes: () => leave.abort() }));
    expect(x.ending).toBe('aborted');
    expect(Buffer.from(x.body).toString()).toBe('data: 1\n\n');
    expect(x.arrivals).toHaveLength(1);
    expect(pending).toBe(0);
  });
});
