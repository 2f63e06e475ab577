/**
 * The real AdkApiServer of @google/adk-devtools 2.0.0 as a server helper (docs/adk-server-contract.md
 * "Field evidence"): its Express app, route code unchanged, with agent loading replaced by the
 * Runner the harness hands in and the Runner's session service as its own. Certifying it is how the
 * kit checks its SRV-* levels against a real server: a MUST this fails would be a wrong MUST.
 */
import { loadRealAdk } from './load.ts';

type RunnerLike = { sessionService: unknown; runAsync(params: Record<string, unknown>): AsyncGenerator<unknown, void, undefined> };

export async function createAdkServer(options: { runner: RunnerLike }): Promise<unknown> {
  const { adk, devtools } = await loadRealAdk();
  const { runner } = options;
  // No agents directory: executeAgentRun, the one method that loads agents, is replaced below.
  const server = new devtools.AdkApiServer({ host: '127.0.0.1', port: 0, sessionService: runner.sessionService as never, agentLoader: {} as never, logLevel: adk.LogLevel.ERROR });
  const real = server as unknown as { executeAgentRun: (o: Record<string, unknown>) => AsyncGenerator<unknown, void, undefined>; init: () => Promise<void>; app: unknown };
  real.executeAgentRun = (o) => runner.runAsync({ userId: o.userId, sessionId: o.sessionId, newMessage: o.newMessage, runConfig: o.runConfig, stateDelta: o.stateDelta, abortSignal: o.abortSignal });
  await real.init();
  return real.app;
}
