/**
 * Fuzzing the SSE parsing path: arbitrary bytes, in arbitrary pieces, into core/sse.ts and the
 * reference POST client (reference-impl/client.ts). Nothing throws out of either; invalid UTF-8
 * and an event left open at EOF become issues with their reason; the split never matters; the
 * client always ends exactly once, with its reason, whatever the body, content type or transport
 * failure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseReader, readSse, type SseIssue } from '../../core/sse.ts';
import { createRunClient } from '../../reference-impl/client.ts';
import type { ClientFrame } from '../../reference-impl/transformer/frames.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from '../laws/law-runner.ts';
import { cutAt } from '../laws/pipeline.ts';
import { avoidHeldCrGap, isValidUtf8, offsetsArb, sseBytesArb } from './bytes.ts';

const file = 'test/fuzz/sse-parsing.test.ts';
const params = lawParams(300);
const timeout = lawTimeout(params, 10);

function readPieces(pieces: readonly Uint8Array[]): { frames: string[]; issues: SseIssue[] } {
  const frames: string[] = [];
  const issues: SseIssue[] = [];
  const reader = createSseReader({ onFrame: (f) => frames.push(f.data), onIssue: (i) => issues.push(i) });
  for (const p of pieces) reader.feed(p);
  reader.end();
  return { frames, issues };
}

const kinds = (issues: ReadonlyArray<{ kind: string }>): string[] => issues.map((i) => i.kind).sort();

/** A body that delivers `pieces`, then ends, or fails with a transport error. */
function bodyStream(pieces: readonly Uint8Array[], fail: boolean): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < pieces.length) { controller.enqueue(pieces[i++]!.slice()); return; }
      if (fail) controller.error(Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }) }));
      else controller.close();
    },
  });
}

async function runClient(pieces: readonly Uint8Array[], options: { status: number; contentType: string; fail: boolean }): Promise<ClientFrame[]> {
  const fetchBody: typeof fetch = async () => new Response(bodyStream(pieces, options.fail), { status: options.status, headers: { 'content-type': options.contentType } });
  const client = createRunClient({ baseUrl: 'http://127.0.0.1:9', fetch: fetchBody, idleMs: 60_000 });
  const frames: ClientFrame[] = [];
  for await (const frame of client.run({ appName: 'a', userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'x' }] } })) frames.push(frame);
  return frames;
}

describe(`fuzzing the SSE parsing path (${describeParams(params)})`, () => {
  it('core/sse.ts reads any bytes in any pieces without throwing, the same as in one piece, and reports invalid UTF-8', async () => {
    await checkLaw(file, 'core/sse.ts reads any bytes in any pieces without throwing, the same as in one piece, and reports invalid UTF-8', fc.property(sseBytesArb, offsetsArb, (bytes, offsets) => {
      const whole = readPieces([bytes]);
      const split = readPieces(avoidHeldCrGap(cutAt(bytes, offsets)));
      expect(split.frames).toEqual(whole.frames);
      // The same issues; their order may differ (invalid UTF-8 is reported when its chunk arrives,
      // before the parse errors of earlier lines decoded from the same chunk).
      expect(kinds(split.issues)).toEqual(kinds(whole.issues));
      expect(whole.issues.some((i) => i.kind === 'invalid-utf8')).toBe(!isValidUtf8(bytes));
      for (const issue of whole.issues) expect(issue.message.length).toBeGreaterThan(0);
      expect(readSse(bytes).frames.map((f) => f.data)).toEqual(whole.frames);
    }), params);
  }, timeout);

  it('an event left open at EOF is never dispatched and is reported with its data', async () => {
    await checkLaw(file, 'an event left open at EOF is never dispatched and is reported with its data', fc.property(sseBytesArb, fc.string({ maxLength: 20 }).filter((t) => !/[\r\n]/.test(t)), (bytes, tail) => {
      // Close whatever the fuzz left open, then leave one data line without its blank line.
      const body = Buffer.concat([bytes, Buffer.from(`\n\ndata: ${tail}\n`)]);
      const { frames, issues } = readPieces([body]);
      expect(frames).toEqual(readPieces([Buffer.concat([bytes, Buffer.from('\n\n')])]).frames);
      expect(issues.filter((i) => i.kind === 'unterminated-event').map((i) => (i as { data: string }).data)).toEqual([tail]);
    }), params);
  }, timeout);

  it('the reference client never throws and ends exactly once, whatever the body, status, content type or transport failure', async () => {
    const answerArb = fc.record({ status: fc.constantFrom(200, 200, 200, 404, 500), contentType: fc.constantFrom('text/event-stream', 'text/event-stream; charset=utf-8', 'application/json', 'text/html'), fail: fc.boolean() });
    await checkLaw(file, 'the reference client never throws and ends exactly once, whatever the body, status, content type or transport failure', fc.asyncProperty(sseBytesArb, offsetsArb, answerArb, async (bytes, offsets, answer) => {
      const frames = await runClient(avoidHeldCrGap(cutAt(bytes, offsets)), answer);
      const ends = frames.filter((f) => f.kind === 'end');
      expect(ends).toEqual([frames.at(-1)]);
      const end = ends[0] as Extract<ClientFrame, { kind: 'end' }>;
      if (answer.status !== 200) { expect(end).toMatchObject({ reason: 'http-error', status: answer.status }); return; }
      if (!answer.contentType.startsWith('text/event-stream')) expect(frames[0]).toMatchObject({ kind: 'issue', issue: { kind: 'content-type' } });
      // The client stops at the first frame that ends a run; up to there it yields exactly what the reader dispatches.
      const data = frames.filter((f): f is Extract<ClientFrame, { data: string }> => 'data' in f).map((f) => f.data);
      const whole = readPieces([bytes]);
      expect(whole.frames.slice(0, data.length)).toEqual(data);
      if (end.reason === 'eof') {
        expect(answer.fail).toBe(false);
        expect(data).toEqual(whole.frames);
        expect(kinds(frames.filter((f) => f.kind === 'issue' && f.issue.kind !== 'content-type').map((f) => (f as { issue: SseIssue }).issue))).toEqual(kinds(whole.issues));
      } else if (end.reason === 'network-error') {
        expect(answer.fail).toBe(true);
        expect(end.message).toMatch(/terminated|other side closed/);
      } else {
        expect(['error-frame', 'done-sentinel']).toContain(end.reason);
      }
    }), params);
  }, timeout);
});
