/**
 * `adk-conformance proxy`: serve the reference cookie-to-bearer SSE proxy (seed 004 § Frontend SSE
 * Proxy Pattern) in front of a gateway until SIGINT/SIGTERM. Settings come from the environment
 * (docs/proxy-contract.md: PORT, BACKEND_URL, AUTH_COOKIE_NAME, CSRF_COOKIE_NAME); flags override.
 */
import { parseOptions, parsePort, UsageError } from '../args.ts';
import { proxyConfigFromEnv, startSseProxy } from '../../reference-impl/sse-proxy.ts';
import { processLineIo, waitForStopSignal } from '../io.ts';
import type { GatewayCommandIo } from './gateway.ts';

const help = `usage: adk-conformance proxy [--host 127.0.0.1] [--port 3000] [--backend URL]

Serve the reference cookie-to-bearer proxy: POST /api/sse/run_sse takes the bearer token from the
HttpOnly access_token cookie and calls the backend's POST /run_sse with an Authorization header.

  --host      interface to listen on (default 127.0.0.1)
  --port      TCP port; 0 lets the kernel choose (default: $PORT, else 3000)
  --backend   the gateway's base URL (default: $BACKEND_URL, else http://127.0.0.1:8000)`;

export async function run(argv: string[], io: GatewayCommandIo = processLineIo()): Promise<number> {
  const { values, positionals } = parseOptions(argv, { host: { type: 'string' }, port: { type: 'string' }, backend: { type: 'string' } }, help);
  if (values.help) { io.out(help); return 0; }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'.\n\n${help}`);
  const env: Record<string, string | undefined> = { BACKEND_URL: 'http://127.0.0.1:8000', ...(io.env ?? process.env) };
  if (values.backend !== undefined) env.BACKEND_URL = values.backend;
  const port = values.port !== undefined ? parsePort(values.port, 3000) : parsePort(env.PORT, 3000, 'the PORT environment variable');
  let proxy: Awaited<ReturnType<typeof startSseProxy>>;
  try {
    proxy = await startSseProxy({ config: proxyConfigFromEnv({ ...env, PORT: String(port) }).config, host: values.host ?? '127.0.0.1', port });
  } catch (error) {
    if (error instanceof TypeError || /BACKEND_URL|PORT/.test((error as Error).message)) throw new UsageError((error as Error).message);
    throw error;
  }
  io.out(`proxy listening on ${proxy.url} (backend ${env.BACKEND_URL})`);
  const signal = await (io.stopSignal ?? waitForStopSignal());
  io.out(`${signal}: closing the proxy`);
  await proxy.close();
  return 0;
}
