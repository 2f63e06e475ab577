/**
 * The tap never holds a frame back to judge it: an upstream that writes its second event only once
 * the client has received the first through the tap (a causal handshake, no clock) completes only
 * if the tap forwarded the first event on its own. A tap that buffered to judge whole events,
 * chunks or the run would deadlock, and the bounded wait below fails the test instead.
 */
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { clientHeaders, findingsOf, jsFinalFrame, jsHeaders, runBody, startTestTap, startUpstream, type TestTap } from './test-support.ts';

const final = jsFinalFrame();
const { id: _id, ...rest } = final.event;
// The first event: the final one's text as a partial chunk (adk-js streaming).
const first = `data: ${JSON.stringify({ ...rest, id: 'Aa1Bb2Cc', partial: true })}\n\n`;

let released: () => void = () => {};
const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => { for (const c of cleanup.reverse()) await c(); });

describe('the tap forwards each frame before the upstream sends the next', () => {
  it('an upstream that waits for the client to receive its first event completes through the tap, with no finding', async () => {
    const secondSent = new Promise<void>((resolve) => { released = resolve; });
    const upstream = await startUpstream({
      handshake: (res) => {
        res.sendDate = false;
        res.writeHead(200, jsHeaders.flat() as unknown as http.OutgoingHttpHeaders);
        res.write(first);
        // The rest only once the client has the first event.
        void secondSent.then(() => { res.end(final.bytes); });
      },
    });
    const tap: TestTap = await startTestTap(upstream.url, 'adk');
    cleanup.push(() => upstream.close(), tap.close);

    const received: Buffer[] = [];
    const done = new Promise<string>((resolve, reject) => {
      const req = http.request(`${tap.url}/run_sse`, { method: 'POST', headers: clientHeaders }, (res) => {
        res.on('data', (chunk: Buffer) => {
          received.push(chunk);
          if (Buffer.concat(received).toString('utf8').startsWith(first)) released();
        });
        res.on('end', () => resolve(Buffer.concat(received).toString('utf8')));
      });
      req.on('error', reject);
      req.end(runBody('handshake'));
    });
    const bound = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the client never got the first event before the upstream sent the next: the tap held it back')), 10_000).unref());
    const body = await Promise.race([done, bound]);
    expect(body).toBe(first + final.bytes);
    await tap.waitEnded(1);
    expect(findingsOf(tap.ended[0]!.summary)).toEqual([]);
  });
});
