/**
 * Start the mock on a real socket. `port: 0` lets the kernel choose; `url` carries the port it
 * chose. `close()` ends held-open streams and waits for the server to stop.
 */
import type { FastifyInstance } from 'fastify';
import { buildMockApp, mockStateOf, type MockAppOptions } from './app.ts';
import { registerLocalMock } from './local-calls.ts';

export type StartMockOptions = MockAppOptions & { host?: string; port?: number };

export type RunningMock = { url: string; app: FastifyInstance; close: () => Promise<void> };

export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`startMock: port must be an integer from 0 to 65535, got ${port}`);
  const app = buildMockApp({ bindHost: host, ...options });
  await app.listen({ host, port });
  const address = app.server.address();
  const chosen = typeof address === 'object' && address !== null ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  const url = `http://${shownHost}:${chosen}`;
  // The harness's own session and control calls skip the socket (local-calls.ts); a recording proxy's are forwarded, so they take HTTP.
  const unregister = options.recordFrom ? () => {} : registerLocalMock(url, mockStateOf(app));
  return {
    url,
    app,
    close: () => (closing ??= (unregister(), app.close().then(() => undefined))),
  };
}
