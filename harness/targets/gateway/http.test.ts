import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('exchange read window', () => {
  it('reads what arrived while the harness was stalled before it judges the window (a plain timer ran first and cut the stream)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exchange-stall-'));
    const flag = join(dir, 'ended');
    // The gateway: a process of its own, so it writes while the harness's loop is blocked. Its second
    // chunk and end come 50 ms after the first; the flag file says they were handed to the kernel.
    const script = `const http=require('node:http'),fs=require('node:fs');const s=http.createServer((q,r)=>{q.resume();q.on('end',()=>{r.writeHead(200,{'content-type':'text/event-stream'});r.write('data: 1\\n\\n');setTimeout(()=>r.end('data: 2\\n\\n',()=>fs.writeFileSync(${JSON.stringify(flag)},'x')),50);});});s.listen(0,'127.0.0.1',()=>console.log(s.address().port));`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
        child.once('exit', () => reject(new Error('the server exited')));
      });
      const deadlineMs = 300;
      const x = await exchange(`http://127.0.0.1:${port}/run_sse`, {
        body: '{}',
        deadlineMs,
        // After the first chunk's handler (in the check phase: the next turn's timers phase then reads a
        // fresh clock), the harness's loop blocked until the rest was sent and the window was over.
        onFirstBytes: () => {
          setImmediate(() => {
            const since = performance.now();
            while (!existsSync(flag) && performance.now() - since < 20_000) { /* the gateway writes meanwhile */ }
            while (performance.now() - since < deadlineMs + 100) { /* past the window */ }
          });
        },
      });
      expect(existsSync(flag)).toBe(true);
      expect(x.ending).toBe('complete');
      expect(Buffer.from(x.body).toString()).toBe('data: 1\n\ndata: 2\n\n');
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
