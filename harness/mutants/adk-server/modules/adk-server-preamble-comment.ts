/** Mutant: a comment line opens the stream (a framework's "stream open" preamble). Kills ADK-SSE-002. */
import { createRunSseRoute, referenceBehaviour, type RunnerLike } from '../../../../reference-impl/adk-server.ts';

export function createAdkServer(options: { runner: RunnerLike }) {
  return createRunSseRoute(options.runner, { ...referenceBehaviour, preamble: ': stream open\n\n' });
}
