/**
 * A proxy mutant as a program, the way a team's proxy is given to the harness:
 *   node --import <tsx loader> harness/mutants/proxy/serve.ts <break>
 * It reads the contract environment (PORT, BACKEND_URL, AUTH_COOKIE_NAME, CSRF_COOKIE_NAME;
 * docs/proxy-contract.md), listens on 127.0.0.1:$PORT, and stops on SIGTERM/SIGINT.
 */
import { proxyConfigFromEnv, startSseProxy } from '../../../reference-impl/sse-proxy.ts';
import { proxyBreakNamed } from './breaks.ts';

const name = process.argv[2];
if (name === undefined) {
  process.stderr.write('usage: serve.ts <break>   (see harness/mutants/proxy/breaks.ts)\n');
  process.exit(2);
}
try {
  const { config, port } = proxyConfigFromEnv(process.env);
  const running = await startSseProxy({ config, port, steps: proxyBreakNamed(name) });
  process.stdout.write(`proxy mutant ${name} listening on ${running.url}\n`);
  const stop = () => { void running.close().then(() => process.exit(0)); };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  process.stderr.write(`proxy mutant ${name}: ${(error as Error).message}\n`);
  process.exit(2);
}
