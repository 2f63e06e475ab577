/**
 * The client memory probe's in-process transport: the probe's origin answered through the global
 * fetch, everything else passed to the real fetch, aborts honoured, the real fetch put back.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerInProcess } from './in-process-fetch.ts';
import { moduleMemory, runOfRequest } from './memory.ts';
import type { ClientFactory } from './drive.ts';

let other: ReturnType<typeof createServer>;
let otherUrl = '';
beforeAll(async () => {
  other = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('from the socket'); });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => { await new Promise<void>((resolve) => other.close(() => resolve())); });

describe('answerInProcess', () => {
  it('answers POSTs to its origin here, passes the rest to the real fetch, and puts it back', async () => {
    const real = globalThis.fetch;
    const local = answerInProcess('http://127.0.0.1:1', (body) => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: Buffer.from(`data: ${body}\n\n`) }));
    try {
      const a = await fetch('http://127.0.0.1:1/run_sse', { method: 'POST', body: '{"x":1}' });
      expect([a.status, a.headers.get('content-type'), await a.text()]).toEqual([200, 'text/event-stream', 'data: {"x":1}\n\n']);
      // A Request and a non-string body are read as fetch reads them.
      const b = await fetch(new Request('http://127.0.0.1:1/run_sse', { method: 'POST', body: new Blob(['{"y":2}']) }));
      expect(await b.text()).toBe('data: {"y":2}\n\n');
      // Another origin and another method reach the real fetch.
      expect(await (await fetch(`${otherUrl}/x`, { method: 'POST', body: 'z' })).text()).toBe('from the socket');
      await expect(fetch('http://127.0.0.1:1/run_sse')).rejects.toThrow();
      const aborted = AbortSignal.abort(new Error('stop'));
      await expect(fetch('http://127.0.0.1:1/run_sse', { method: 'POST', body: '{}', signal: aborted })).rejects.toThrow('stop');
      expect(local.counts()).toEqual({ local: 2 });
    } finally {
      local.restore();
    }
    expect(globalThis.fetch).toBe(real);
  });
});

describe('the client memory instance', () => {
  const windows = { idleMs: 1000, graceMs: 250, callIdleMs: 3000 };
  it('reaches a client that does not call the global fetch through its server on 127.0.0.1, and says so', async () => {
    // A client on node:http, as an axios or got client is.
    const create: ClientFactory = ({ baseUrl }) => ({
      run: (body, onRecord) => new Promise<void>((resolve, reject) => {
        const req = request(`${baseUrl}/run_sse`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => { text += c; }).on('end', () => {
            for (const block of text.split('\n\n')) if (block.startsWith('data: ')) onRecord({ data: block.slice(6) });
            onRecord({ end: 'eof' });
            resolve();
          });
        });
        req.on('error', reject);
        req.end(JSON.stringify(body));
      }),
    });
    const instance = await moduleMemory(async () => create, windows);
    try {
      expect(await instance.run(7, 0)).toBeUndefined();
      expect(instance.via?.()).toBe('0 streams answered in this process through the global fetch and 1 by a server on 127.0.0.1');
    } finally {
      await instance.close();
    }
  });

  it('names the run its request names', () => {
    expect(runOfRequest('{"sessionId":"memory-42"}')).toBe(42);
    expect(runOfRequest('not json')).toBe(0);
  });
});
