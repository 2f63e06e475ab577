/** Mutant: events serialised through a fixed list of "known" fields, the way a typed DTO does. Kills SRV-FID-001. */
import { createRunSseRoute, referenceBehaviour, type RunnerLike } from '../../../../reference-impl/adk-server.ts';

const known = ['invocationId', 'author', 'id', 'timestamp', 'content', 'actions', 'longRunningToolIds', 'partial', 'usageMetadata', 'finishReason', 'errorCode', 'errorMessage', 'branch'];

function dto(event: unknown): string {
  const e = event as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of known) if (e[k] !== undefined) out[k] = e[k];
  const actions = e.actions as Record<string, unknown> | undefined;
  if (actions) out.actions = { stateDelta: actions.stateDelta, artifactDelta: actions.artifactDelta, requestedAuthConfigs: actions.requestedAuthConfigs, requestedToolConfirmations: actions.requestedToolConfirmations, ...(actions.transferToAgent !== undefined ? { transferToAgent: actions.transferToAgent } : {}) };
  const content = e.content as { role?: string; parts?: Array<Record<string, unknown>> } | undefined;
  if (content?.parts) out.content = { role: content.role, parts: content.parts.map(({ thoughtSignature: _dropped, ...part }) => part) };
  return JSON.stringify(out);
}

export function createAdkServer(options: { runner: RunnerLike }) {
  return createRunSseRoute(options.runner, { ...referenceBehaviour, serialise: dto });
}
