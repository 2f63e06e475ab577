/**
 * Start the mock on a real socket. `port: 0` lets the kernel choose; `url` carries the port it
 * chose. `close()` ends held-open streams and waits for the server to stop.
 */
import type { FastifyInstance } from 'fastify';
import { buildMockApp, type MockAppOptions } from './app.ts';

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
  return {
    url: `http://${shownHost}:${chosen}`,
    app,
    close: () => (closing ??= app.close().then(() => undefined)),
  };
}
