/**
 * Exact memory of a Node gateway for GW-MEM-002: the `memory` instance runs with the V8 inspector
 * on a loopback port the harness picked (NODE_OPTIONS=--inspect=127.0.0.1:<port>; other runtimes
 * ignore it). Over the DevTools protocol the harness forces a full collection
 * (`HeapProfiler.collectGarbage`) and reads `process.memoryUsage()`: the JS heap in use plus the
 * memory outside it (Buffers) is then what the process retains, with no garbage in it, so a leak of
 * 1 KB per run shows within a few thousand runs. RSS cannot tell garbage from retention in a V8
 * process before tens of thousands of runs (harness/checks/gateway/memory.ts).
 *
 * The harness only talks to a process that listens on the instance's $PORT (a wrapper such as
 * `npm start` would take the inspector port first); anything else, and any failure, means "no
 * inspector": the probe then measures RSS. A minimal WebSocket client (RFC 6455, text frames only)
 * keeps the kit free of a dependency.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';

export type HeapReading = { heapUsed: number; external: number; rss: number };

export type InspectorSession = {
  /** Force a full collection, then read the process's memory. */
  read: () => Promise<HeapReading | { error: string }>;
  close: () => void;
};

function getJson(url: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => { try { resolve(JSON.parse(Buffer.concat(parts).toString('utf8'))); } catch { resolve(undefined); } });
      res.on('error', () => resolve(undefined));
    });
    req.setTimeout(timeoutMs, () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

/** A text frame from the client (masked, as RFC 6455 requires of clients). */
function frame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x81, 0x80 | len]) : len < 65536 ? Buffer.from([0x81, 0x80 | 126, len >> 8, len & 0xff]) : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(len)); return b; })()]);
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return Buffer.concat([head, mask, body]);
}

/** Connect to the inspector on `port`; undefined when there is none, or it is not the gateway on `gatewayPort`. */
export async function openInspector(port: number, gatewayPort: number, timeoutMs = 3000): Promise<InspectorSession | undefined> {
  const list = await getJson(`http://127.0.0.1:${port}/json/list`, timeoutMs);
  const target = Array.isArray(list) ? (list[0] as { webSocketDebuggerUrl?: unknown } | undefined) : undefined;
  if (typeof target?.webSocketDebuggerUrl !== 'string') return undefined;
  const url = new URL(target.webSocketDebuggerUrl);
  const socket = net.connect({ host: '127.0.0.1', port: Number(url.port) });
  socket.setNoDelay(true);
  const pending = new Map<number, (message: Record<string, unknown> | undefined) => void>();
  let nextId = 0;
  let upgraded = false;
  let buffer = Buffer.alloc(0);
  let closed = false;
  const failAll = () => { closed = true; for (const done of pending.values()) done(undefined); pending.clear(); };
  socket.on('error', failAll);
  socket.on('close', failAll);
  const opened = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        upgraded = /^HTTP\/1\.1 101/.test(buffer.subarray(0, end).toString('latin1'));
        buffer = buffer.subarray(end + 4);
        clearTimeout(timer);
        resolve(upgraded);
        if (!upgraded) return;
      }
      // Server frames: unmasked; text (1), close (8), ping (9). The inspector does not fragment.
      for (;;) {
        if (buffer.length < 2) return;
        const opcode = (buffer[0] ?? 0) & 0x0f;
        let len = (buffer[1] ?? 0) & 0x7f;
        let at = 2;
        if (len === 126) { if (buffer.length < 4) return; len = buffer.readUInt16BE(2); at = 4; } else if (len === 127) { if (buffer.length < 10) return; len = Number(buffer.readBigUInt64BE(2)); at = 10; }
        if (buffer.length < at + len) return;
        const payload = buffer.subarray(at, at + len);
        buffer = buffer.subarray(at + len);
        if (opcode === 8) { socket.destroy(); return; }
        if (opcode === 9) continue;
        if (opcode !== 1) continue;
        try {
          const message = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
          const done = typeof message.id === 'number' ? pending.get(message.id) : undefined;
          if (done) { pending.delete(message.id as number); done(message); }
        } catch { /* not JSON: ignored */ }
      }
    });
  });
  socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  if (!(await opened)) { socket.destroy(); return undefined; }

  const call = (method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown> | undefined> => new Promise((resolve) => {
    if (closed) { resolve(undefined); return; }
    const id = ++nextId;
    const timer = setTimeout(() => { pending.delete(id); resolve(undefined); }, timeoutMs);
    pending.set(id, (m) => { clearTimeout(timer); resolve(m); });
    socket.write(frame(JSON.stringify({ id, method, params })));
  });
  const evaluate = async (expression: string): Promise<unknown> => {
    const m = await call('Runtime.evaluate', { expression, returnByValue: true });
    return ((m?.result as { result?: { value?: unknown } } | undefined)?.result)?.value;
  };

  // Only the process that serves the gateway's port is measured.
  const listens = await evaluate(`(process._getActiveHandles?.() ?? []).some((h) => typeof h?.address === 'function' && h.address()?.port === ${gatewayPort})`);
  if (listens !== true) { socket.destroy(); return undefined; }
  return {
    async read() {
      if (!(await call('HeapProfiler.collectGarbage'))) return { error: 'the inspector did not answer HeapProfiler.collectGarbage' };
      const value = await evaluate('JSON.stringify(process.memoryUsage())');
      try {
        const usage = JSON.parse(String(value)) as { heapUsed?: unknown; external?: unknown; rss?: unknown };
        if (typeof usage.heapUsed !== 'number' || typeof usage.external !== 'number' || typeof usage.rss !== 'number') throw new Error('no numbers');
        return { heapUsed: usage.heapUsed, external: usage.external, rss: usage.rss };
      } catch {
        return { error: 'the inspector gave no process.memoryUsage()' };
      }
    },
    close() { socket.destroy(); },
  };
}
