/** Mutant: the message is handed to the Runner whatever it holds, so an empty text part reaches the model. Kills SRV-EMPTY-001. */
import { createRunSseRoute, referenceBehaviour, type RunnerLike } from '../../../../reference-impl/adk-server.ts';

export function createAdkServer(options: { runner: RunnerLike }) {
  return createRunSseRoute(options.runner, { ...referenceBehaviour, refuseEmpty: false });
}
