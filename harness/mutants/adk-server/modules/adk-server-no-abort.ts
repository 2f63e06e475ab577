/** Mutant: the route ignores the client leaving: no abortSignal, and it keeps pulling the Runner. Kills SRV-ABORT-001. */
import { createRunSseRoute, referenceBehaviour, type RunnerLike } from '../../../../reference-impl/adk-server.ts';

export function createAdkServer(options: { runner: RunnerLike }) {
  return createRunSseRoute(options.runner, { ...referenceBehaviour, abortOnClose: false });
}
