/**
 * The tap in front of the hostile battery's misbehaving gateways (test/hostile/impls/gateway.mjs,
 * each a real child process): every one gives its run a finding that names what was wrong, the
 * client gets exactly the bytes the gateway sent (or the same broken connection), and the same tap
 * then serves the next request. A gateway that never ends is judged when the client leaves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { rawRequest } from './gateway-fixtures.ts';
import { clientHeaders, findingsOf, runBody, startTestTap, type TestTap } from '../tap/test-support.ts';
import { repoRoot } from './hostile/support.ts';

const children: ChildProcess[] = [];
afterAll(() => { for (const c of children) c.kill('SIGKILL'); });

function freePort(): Promise<number> {
  return new Promise((resolve) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)); }); });
}

async function hostileGateway(mode: string): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, ['test/hostile/impls/gateway.mjs', mode], { cwd: repoRoot, env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  children.push(child);
  for (let i = 0; i < 200; i++) {
    const up = await new Promise<boolean>((resolve) => { const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(true); }); s.on('error', () => resolve(false)); });
    if (up) return `http://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gateway.mjs ${mode} did not listen on ${port} within 5 s`);
}

/** What each gateway does wrong, the run's findings (requirement and code, sorted), and how the client's exchange ended. */
const cases: Array<{ mode: string; findings: string[]; client: 'complete' | 'broken'; status: number }> = [
  { mode: 'garbage', findings: ['ADK-END-001 eof-without-answer', 'ADK-SSE-001 invalid-utf8', 'ADK-SSE-002 field-not-adk'], client: 'complete', status: 200 },
  { mode: 'early-close', findings: ['ADK-SSE-001 unterminated-event', 'GW-ERR-003 stream-broken'], client: 'broken', status: 200 },
  { mode: 'multi-megabyte-line', findings: ['ADK-END-001 eof-without-answer', 'ADK-SSE-001 frame-over-limit'], client: 'complete', status: 200 },
  { mode: 'invalid-utf8', findings: ['ADK-END-001 eof-without-answer', 'ADK-EVT-001 schema-invalid', 'ADK-KEY-001 unknown-key', 'ADK-SSE-001 invalid-utf8'], client: 'complete', status: 200 },
  { mode: 'wrong-content-type', findings: ['ADK-SSE-001 not-event-stream', 'GW-HDR-001 header-wrong', 'GW-HDR-002 header-missing', 'GW-HDR-004 header-missing'], client: 'complete', status: 200 },
  { mode: 'html', findings: ['ADK-SSE-001 not-event-stream', 'GW-HDR-001 header-wrong', 'GW-HDR-002 header-missing', 'GW-HDR-004 header-missing'], client: 'complete', status: 200 },
  { mode: 'empty-200', findings: ['ADK-SSE-001 not-event-stream', 'GW-HDR-001 header-missing', 'GW-HDR-002 header-missing', 'GW-HDR-004 header-missing'], client: 'complete', status: 200 },
  // No HTTP response at all: the tap answers 502 itself (TAP_UPSTREAM_*), as a proxy does.
  { mode: 'stderr-only', findings: ['ADK-HTTP-001 no-response'], client: 'complete', status: 502 },
];

describe('the tap in front of hostile gateways', () => {
  it.each(cases.map((c) => [c.mode, c] as const))('%s: a finding that names it, and the tap serves the next request', async (mode, c) => {
    const gateway = await hostileGateway(mode);
    const tap: TestTap = await startTestTap(gateway, 'gateway');
    try {
      const through = await rawRequest(`${tap.url}/run_sse`, { body: runBody('h-1'), headers: clientHeaders }).catch((e: Error) => ({ status: 0, body: Buffer.alloc(0), rawHeaders: [], error: e.message }));
      expect(through.error === undefined ? 'complete' : 'broken', through.error).toBe(c.client);
      expect(through.status).toBe(c.status);
      await tap.waitEnded(1);
      expect(findingsOf(tap.ended[0]!.summary)).toEqual(c.findings);
      // The bytes the client got are the gateway's own (a 502 is the tap's: the gateway sent nothing).
      if (c.client === 'complete' && c.status !== 502) {
        const direct = await rawRequest(`${gateway}/run_sse`, { body: runBody('h-2'), headers: clientHeaders });
        expect(Buffer.compare(through.body, direct.body)).toBe(0);
      }
      // Still serving.
      await rawRequest(`${tap.url}/run_sse`, { body: runBody('h-3'), headers: clientHeaders }).catch(() => undefined);
      await tap.waitEnded(2);
      expect(tap.ended).toHaveLength(2);
    } finally {
      await tap.close();
    }
  });

  it('never-ends: the client that leaves is judged as such and the upstream request is closed', async () => {
    const gateway = await hostileGateway('never-ends');
    const tap = await startTestTap(gateway, 'gateway');
    try {
      const leave = new AbortController();
      const sent = rawRequest(`${tap.url}/run_sse`, { body: runBody('n-1'), headers: clientHeaders, signal: leave.signal }).catch(() => undefined);
      for (let i = 0; i < 200 && tap.core.openRuns() === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 100));
      leave.abort();
      await sent;
      await tap.waitEnded(1);
      expect(tap.ended[0]!.summary.ending).toBe('client-closed');
      expect(tap.core.openRuns()).toBe(0);
    } finally {
      await tap.close();
    }
  });
});
