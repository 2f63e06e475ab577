/**
 * The client memory probe's in-process transport: the probe's origin answered through the global
 * fetch, everything else passed to the real fetch, aborts honoured, the real fetch put back.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerInProcess, chunkedBody } from './in-process-fetch.ts';
import { caseAnswer, serveCases } from './cases.ts';
import { isolationCases } from './long-lived.ts';
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

describe('answerInProcess with several origins', () => {
  it('answers each origin while it is registered, and puts the real fetch back after the last', async () => {
    const real = globalThis.fetch;
    const answer = (tag: string) => () => ({ status: 200, headers: {}, body: Buffer.from(tag) });
    const a = answerInProcess('http://127.0.0.1:1', answer('a'));
    const b = answerInProcess('http://127.0.0.1:2', answer('b'));
    expect(() => answerInProcess('http://127.0.0.1:2', answer('again'))).toThrow(/already/);
    expect(await (await fetch('http://127.0.0.1:2/run_sse', { method: 'POST', body: '' })).text()).toBe('b');
    a.restore();
    expect(globalThis.fetch).not.toBe(real);
    await expect(fetch('http://127.0.0.1:1/run_sse', { method: 'POST', body: '' })).rejects.toThrow();
    expect(await (await fetch('http://127.0.0.1:2/run_sse', { method: 'POST', body: '' })).text()).toBe('b');
    b.restore();
    b.restore();
    expect(globalThis.fetch).toBe(real);
    expect(b.counts()).toEqual({ local: 2 });
  });
});

describe('chunkedBody', () => {
  const read = async (body: ReadableStream<Uint8Array>) => {
    const reader = body.getReader();
    const got: string[] = [];
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) got.push(Buffer.from(r.value).toString('utf8'));
      return { got, end: 'eof' };
    } catch (error) {
      return { got, end: (error as Error).message };
    }
  };
  const chunks = [{ bytes: Buffer.from('a'), delayMs: 0 }, { bytes: Buffer.from('b'), delayMs: 30 }];
  it('gives each chunk after its gap, then ends as the transport says', async () => {
    const t0 = performance.now();
    expect(await read(chunkedBody(chunks, 'eof'))).toEqual({ got: ['a', 'b'], end: 'eof' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(25);
    // A reset body hands over its last bytes, then fails as undici's does when the socket closes.
    expect(await read(chunkedBody(chunks, 'reset'))).toEqual({ got: ['a', 'b'], end: 'terminated' });
    const held = chunkedBody(chunks, 'hold-open').getReader();
    await held.read();
    await held.read();
    const third = await Promise.race([held.read().then(() => 'ended'), new Promise((r) => setTimeout(() => r('still open'), 80))]);
    expect(third).toBe('still open');
    await held.cancel();
  });

  it('answers every isolation case in process with the bytes and end its case server gives', async () => {
    const server = await serveCases(isolationCases);
    try {
      for (const c of isolationCases) {
        const overHttp = await fetch(`${server.url}/case/${c.id}/run_sse`, { method: 'POST', body: '{}' });
        const inProcess = caseAnswer(c);
        expect(inProcess.status).toBe(overHttp.status);
        const local = await read(new Response(inProcess.body as unknown as BodyInit).body as ReadableStream<Uint8Array>);
        const remote = await read(overHttp.body as ReadableStream<Uint8Array>);
        expect({ bytes: local.got.join(''), end: local.end }).toEqual({ bytes: remote.got.join(''), end: remote.end });
      }
    } finally {
      await server.close();
    }
    expect(caseAnswer(undefined).status).toBe(404);
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
