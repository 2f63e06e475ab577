/**
 * A TCP relay between the gateway and the mock that holds every upstream answer until `release()`.
 * Requests reach the mock at once; the mock's bytes wait in the relay, unchanged, so every stream
 * stays open in the gateway at the same moment however fast the machine is. That makes "N
 * concurrent streams" a fact the test can count (the gateway's open streams, the relay's held
 * connections) instead of a race it hopes to win. Bytes are forwarded verbatim, ends and resets
 * included.
 */
import net from 'node:net';

export type GateRelay = {
  url: string;
  /** Connections whose answers are being held (or were, before release). */
  connections: () => number;
  /** Forward everything held and everything after it. */
  release: () => void;
  close: () => Promise<void>;
};

export async function startGateRelay(target: { host: string; port: number }): Promise<GateRelay> {
  let released = false;
  let count = 0;
  const flushers = new Set<() => void>();
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    count += 1;
    sockets.add(client);
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    const held: Buffer[] = [];
    let upstreamEnded = false;
    let upstreamBroke = false;
    let finished = false;
    const finish = () => {
      if (finished || (!upstreamBroke && !upstreamEnded)) return;
      finished = true;
      if (upstreamBroke) client.destroy();
      else client.end();
    };
    const flush = () => {
      for (const chunk of held.splice(0)) client.write(chunk);
      finish();
    };
    flushers.add(flush);
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    client.on('end', () => upstream.end());
    client.on('error', () => upstream.destroy());
    client.on('close', () => { sockets.delete(client); flushers.delete(flush); upstream.destroy(); });
    upstream.on('data', (chunk: Buffer) => { if (released) client.write(chunk); else held.push(chunk); });
    upstream.on('end', () => { upstreamEnded = true; if (released) finish(); });
    upstream.on('error', () => { upstreamBroke = true; if (released) finish(); });
    upstream.on('close', () => { sockets.delete(upstream); if (!upstreamEnded) upstreamBroke = true; if (released) finish(); });
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('gate relay: no TCP address after listen');
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections: () => count,
    release() {
      released = true;
      for (const flush of [...flushers]) flush();
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
