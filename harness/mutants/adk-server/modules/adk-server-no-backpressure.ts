/** Mutant: each event is written without waiting for the socket to drain. Kills SRV-BP-001. */
import { createRunSseRoute, referenceBehaviour, type RunnerLike } from '../../../../reference-impl/adk-server.ts';

export function createAdkServer(options: { runner: RunnerLike }) {
  return createRunSseRoute(options.runner, { ...referenceBehaviour, backpressure: false });
}
