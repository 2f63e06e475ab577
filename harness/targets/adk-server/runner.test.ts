/**
 * The server-helper runner on helpers other than the reference: the real AdkApiServer (field
 * evidence for the SRV levels), a fetch-style helper, and a factory that returns nothing usable.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { certifyAdkServer as certify, judged } from './test-support.ts';

const statuses = (result: Awaited<ReturnType<typeof certify>>) => Object.fromEntries(result.requirements.map((q) => [q.id, q.status]));
const allPassed = Object.fromEntries(judged.map((q) => [q.id, 'passed']));

/** A Hono-style helper: fetch(Request) => Response, a pull-based body (backpressure), the request's signal passed to the Runner. */
const fetchHelper = `
export function createAdkServer({ runner }) {
  return {
    async fetch(request) {
      const body = await request.json();
      const parts = body.newMessage?.parts ?? [];
      if (!parts.some((p) => (typeof p.text === 'string' ? p.text.trim() !== '' : Object.keys(p).length > 0))) return Response.json({ error: 'empty message' }, { status: 400 });
      const session = await runner.sessionService.getSession({ appName: body.appName, userId: body.userId, sessionId: body.sessionId });
      if (!session) return Response.json({ error: 'Session not found' }, { status: 404 });
      const events = runner.runAsync({ userId: body.userId, sessionId: body.sessionId, newMessage: body.newMessage, runConfig: { streamingMode: body.streaming ? 'sse' : 'none' }, abortSignal: request.signal });
      const encoder = new TextEncoder();
      const stream = new ReadableStream({
        async pull(controller) {
          try {
            const next = await events.next();
            if (next.done) controller.close();
            else controller.enqueue(encoder.encode('data: ' + JSON.stringify(next.value) + '\\n\\n'));
          } catch (error) {
            controller.enqueue(encoder.encode('data: ' + JSON.stringify({ error: error.message }) + '\\n\\n'));
            controller.close();
          }
        },
        async cancel() { await events.return(undefined); },
      }, { highWaterMark: 1 });
      return new Response(stream, { headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } });
    },
  };
}
`;

describe('the server-helper runner', () => {
  it('the real AdkApiServer keeps every field and passes every MUST; it neither stops the run when the client leaves, nor waits for drain, nor refuses an empty text part (so those are SHOULDs)', async () => {
    const result = await certify(fileURLToPath(new URL('../../../real-adk/api-server-helper.ts', import.meta.url)));
    expect(statuses(result)).toEqual({ ...allPassed, 'SRV-ABORT-001': 'failed', 'SRV-BP-001': 'failed', 'SRV-EMPTY-001': 'failed' });
    const abort = result.requirements.find((q) => q.id === 'SRV-ABORT-001');
    // adk-js 2.0.0 listens for req 'close', which Node >= 15 emits once the body is read, before the route runs: the abort never fires.
    expect(abort?.findings[0]?.message).toMatch(/neither aborted .* nor ended .* kept calling the model/);
    expect(result.requirements.find((q) => q.id === 'SRV-EMPTY-001')?.findings.map((f) => f.path)).toEqual(['probe:adk-server-empty-message/empty-text']);
    expect(result.verdict).toBe('MUST-compliant');
  }, 60_000);

  it('a fetch-style helper (fetch(Request) => Response with a pull-based body) passes everything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-server-fetch-'));
    const module = join(dir, 'helper.mjs');
    writeFileSync(module, fetchHelper);
    expect(statuses(await certify(module))).toEqual(allPassed);
  }, 60_000);

  it('a helper whose listener rejects is answered 500 for it, and the harness carries on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-server-throws-'));
    const module = join(dir, 'helper.mjs');
    writeFileSync(module, 'export function createAdkServer() { return async () => { throw new Error("route bug"); }; }\n');
    const result = statuses(await certify(module));
    expect(result['SRV-FID-001']).toBe('untested');
    expect(result['ADK-HTTP-001']).toBe('passed');
  }, 60_000);

  it('a factory that returns neither a listener nor a fetch handler leaves every requirement untested, saying what to return', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-server-bad-'));
    const module = join(dir, 'helper.mjs');
    writeFileSync(module, 'export function createAdkServer() { return 42; }\n');
    const result = await certify(module);
    expect(result.requirements.map((q) => q.status)).toEqual(judged.map(() => 'untested'));
    expect(result.requirements[0]?.reason).toMatch(/returned number; return a Node request listener \(req, res\) => void or an object with fetch\(request\) => Response/);
  }, 60_000);
});
