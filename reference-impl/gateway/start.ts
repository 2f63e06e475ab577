/**
 * Listen on a socket: `startGateway({config, host, port})` → `{url, port, app, close}`. Tests use
 * port 0 on 127.0.0.1; the CLI passes --host/--port (or PORT).
 */
import type { FastifyInstance } from 'fastify';
import { buildGatewayApp, type BuildGatewayOptions } from './app.ts';
import type { GatewayConfigInput } from './config.ts';

export type StartGatewayOptions = BuildGatewayOptions & { config: GatewayConfigInput; host?: string; port?: number };

export type RunningGateway = { url: string; port: number; app: FastifyInstance; close: () => Promise<void> };

export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const app = buildGatewayApp(options.config, options);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error(`gateway: expected a TCP address after listen, got ${String(address)}`);
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${urlHost}:${address.port}`, port: address.port, app, close: () => app.close() };
}
