/**
 * Proxy mutants: the reference cookie-to-bearer proxy with one defect each (breaks.ts), run as a
 * command exactly as a team's proxy is given with --proxy-cmd. Each names exactly the requirements
 * the harness reports as failed for it (proven by harness/mutants/proxy.mutants.test.ts).
 */
import { fileURLToPath } from 'node:url';
import type { GatewayLauncher } from '../../targets/gateway/instances.ts';
import { proxyConfigFromEnv, startSseProxy } from '../../../reference-impl/sse-proxy.ts';
import type { Mutant } from '../types.ts';
import { tsCommand } from '../ts-command.ts';
import { proxyBreakNamed } from './breaks.ts';

const serve = fileURLToPath(new URL('./serve.ts', import.meta.url));

export function proxyMutantCommand(name: string): string {
  return tsCommand(serve, name);
}

const mutant = (name: string, description: string, kills: string[]): Mutant => ({
  id: `proxy-${name}`, part: 'proxy', description, kills, target: { proxy: { command: proxyMutantCommand(name) } },
});

export const proxyMutants: Mutant[] = [
  mutant('token-in-backend-url', 'puts the token in the backend URL (?access_token=) beside the Authorization header', ['PRX-URL-001']),
  mutant('accepts-url-token', 'takes the token from ?access_token= or ?token= when there is no cookie', ['PRX-URL-001']),
  mutant('service-token-fallback', 'sends a service token of its own when the request has no cookie', ['PRX-AUTH-001']),
  mutant('reframes-events', 'splits the stream by "\\n\\n" and writes back only the data lines', ['PRX-PASS-001']),
  mutant('rewrites-error-answers', 'answers every backend error as {"error": "<backend body>"} in application/json, keeping only the status', ['PRX-PASS-001']),
  mutant('trusts-localhost-host', 'skips the cookie and the CSRF check (a dev token and a CSRF pair of its own) when the Host header says localhost', ['PRX-HOST-001']),
  mutant('reparses-body', 'sends the backend JSON.stringify(JSON.parse(body)): an integer above 2^53 in stateDelta arrives rounded', ['PRX-BODY-001']),
  mutant('rebuilds-body', 'builds the backend body from appName, userId, sessionId, the parts\' text and streaming: stateDelta, invocationId and every other part field are dropped', ['PRX-BODY-001']),
  mutant('buffers-body', 'reads the whole backend answer before writing any of it', ['PRX-PASS-002']),
  mutant('ignores-disconnect', 'keeps reading the backend after the client has gone', ['PRX-ABORT-001']),
  mutant('mints-csrf', 'adds a matching CSRF pair of its own to every backend request', ['PRX-CSRF-001']),
];

/** Tests start a mutant in the test process: the same break on the same reference proxy, without a process start. */
export function inProcessProxyLauncher(breakName: string | undefined): GatewayLauncher {
  const steps = breakName === undefined ? {} : proxyBreakNamed(breakName);
  return async (env, bounds) => {
    try {
      const { config, port } = proxyConfigFromEnv(env);
      const running = await startSseProxy({ config, port, steps });
      return { ok: true, instance: { url: running.url, port: running.port, rss: () => ({ error: 'in process' }), gone: () => undefined, stop: running.close } };
    } catch (error) {
      const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      return { ok: false, reason: `the ${bounds.label} (in process, break ${breakName ?? 'none'}) did not start: ${(error as Error).message}`, ...(taken ? { portTaken: true as const } : {}) };
    }
  };
}
