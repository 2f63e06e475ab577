/**
 * Observations for the gateway check tests: what the reference gateway's answer looks like, so
 * each test changes one thing.
 */
import type { Exchange, StreamRun, UpstreamScript } from './types.ts';

export const referenceHeaders: Array<[string, string]> = [
  ['Content-Type', 'text/event-stream'], ['Cache-Control', 'no-cache'], ['Connection', 'keep-alive'], ['X-Accel-Buffering', 'no'],
  ['Date', 'Sun, 22 Nov 2026 10:00:00 GMT'], ['Transfer-Encoding', 'chunked'],
];

const enc = (s: string | Uint8Array) => (typeof s === 'string' ? new TextEncoder().encode(s) : s);

/** A 200 stream that arrived in the given writes, each `gapMs` after the previous one. */
export function streamed(writes: Array<string | Uint8Array>, options: { gapMs?: number; ending?: Exchange['ending']; headers?: Array<[string, string]>; status?: number } = {}): Exchange {
  const parts = writes.map(enc);
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const arrivals: Exchange['arrivals'] = [];
  let at = 0;
  for (const [i, p] of parts.entries()) {
    body.set(p, at);
    at += p.length;
    arrivals.push({ t: 5 + i * (options.gapMs ?? 0), end: at });
  }
  return { status: options.status ?? 200, rawHeaders: options.headers ?? referenceHeaders, body, arrivals, ending: options.ending ?? 'complete', durationMs: 10 };
}

export function script(text: string | Uint8Array, options: Partial<Omit<UpstreamScript, 'bytes'>> = {}): UpstreamScript {
  return { status: 200, end: 'eof', waits: [], ...options, bytes: enc(text) };
}

export const sentBody = { appName: 'plain_text', userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, streaming: false };

export function run(upstream: UpstreamScript, exchange: Exchange, overrides: Partial<StreamRun> = {}): StreamRun {
  return {
    scenario: 'plain_text', endpoint: '/run_sse', sent: sentBody, upstream, exchange,
    journal: [{ method: 'POST', url: '/run_sse', body: JSON.stringify(sentBody) }],
    ...overrides,
  };
}

export const statuses = (outcomes: Array<{ requirement: string; status: string }>) => Object.fromEntries(outcomes.map((o) => [o.requirement, o.status]));
