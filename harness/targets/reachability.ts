/**
 * Before anything starts: a target given by URL must accept a connection, or the run ends with
 * "could not evaluate" (exit 2) and one reason. Without it every probe and scenario would fail on
 * the same refused connection, burying the one fact that matters under a page of findings.
 * Targets started by command are judged by their own readiness (an implementation that never
 * listens is non-compliant with the reason, docs/harness-gateway.md).
 */
import { connect } from 'node:net';
import { CouldNotEvaluateError } from '../../core/errors.ts';
import type { TargetSpec } from './spec.ts';

function tryConnect(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (problem: string | undefined) => { socket.destroy(); clearTimeout(timer); resolve(problem); };
    const timer = setTimeout(() => done(`no answer within ${timeoutMs} ms`), timeoutMs);
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

export async function assertReachable(target: TargetSpec, timeoutMs = 3000): Promise<void> {
  if (target.proxy && 'url' in target.proxy) {
    const problem = await problemOf(target.proxy.url, timeoutMs);
    if (problem !== undefined) {
      throw new CouldNotEvaluateError(
        `the proxy at ${target.proxy.url} cannot be reached (${problem}): nothing was observed, so no requirement was judged. `
        + `Start the proxy first with BACKEND_URL=http://127.0.0.1:${target.backendPort ?? 8000} (the harness serves the backend there; --backend-port changes it), or let the harness start it with --proxy-cmd "CMD" (docs/proxy-contract.md).`,
      );
    }
  }
  if (!target.gateway || !('url' in target.gateway)) return;
  const problem = await problemOf(target.gateway.url, timeoutMs);
  if (problem === undefined) return;
  throw new CouldNotEvaluateError(
    `the gateway at ${target.gateway.url} cannot be reached (${problem}): nothing was observed, so no requirement was judged. `
    + `Start the gateway first (its upstream at the mock's --mock-port, default 8080), or let the harness start it with --gateway-cmd "CMD" (docs/harness-gateway.md).`,
  );
}

function problemOf(target: string, timeoutMs: number): Promise<string | undefined> {
  const url = new URL(target);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return tryConnect(host, port, timeoutMs);
}
