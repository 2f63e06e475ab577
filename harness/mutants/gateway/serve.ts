/**
 * A gateway mutant as a program, the way a team's gateway is given to the harness:
 *   node --import <tsx loader> harness/mutants/gateway/serve.ts <break>
 * It reads the contract environment (PORT, ADK_UPSTREAM_URL, JWT_SECRET...; docs/harness-gateway.md)
 * like the reference gateway does, listens on 127.0.0.1:$PORT, and stops on SIGTERM/SIGINT.
 */
import { breakNamed } from './breaks.ts';
import { startMutantGateway } from './host.ts';

const name = process.argv[2];
if (name === undefined) {
  process.stderr.write('usage: serve.ts <break>   (see harness/mutants/gateway/breaks.ts)\n');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 8000);
try {
  const running = await startMutantGateway(breakNamed(name), process.env, port);
  process.stdout.write(`gateway mutant ${name} listening on ${running.url}\n`);
  const stop = () => { void running.close().then(() => process.exit(0)); };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  process.stderr.write(`gateway mutant ${name}: ${(error as Error).message}\n`);
  process.exit(2);
}
