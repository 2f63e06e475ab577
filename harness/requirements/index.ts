/**
 * The one requirement registry. Parts keep their lists in their own files; this module merges
 * them and refuses a duplicate id at load (an id is never reused).
 */
import type { Requirement } from '../model.ts';
import { gatewayRequirements } from './gateway.ts';
import { transformerRequirements } from './transformer.ts';
import { proofLayerRequirements } from './proof-layer.ts';
import { normalizerRequirements } from './normalizer.ts';
import { auditBridgeRequirements } from './audit-bridge.ts';
import { proofStreamRequirements } from './proof-stream.ts';
import { clientRequirements } from './client.ts';
import { proxyRequirements } from './proxy.ts';
import { adkStreamRequirements } from './adk-stream.ts';
import { adkServerRequirements } from './adk-server.ts';

export function buildRegistry(lists: Requirement[][]): ReadonlyMap<string, Requirement> {
  const registry = new Map<string, Requirement>();
  for (const requirement of lists.flat()) {
    if (registry.has(requirement.id)) throw new Error(`requirement id ${requirement.id} is defined twice; ids are never reused, give the new one a new id`);
    if (!/^[A-Z]+(-[A-Z]+)+-\d{3}$/.test(requirement.id)) throw new Error(`requirement id ${requirement.id} does not match AREA-TOPIC-NNN`);
    registry.set(requirement.id, Object.freeze(requirement));
  }
  return registry;
}

export const requirements: ReadonlyMap<string, Requirement> = buildRegistry([
  gatewayRequirements,
  transformerRequirements,
  proofLayerRequirements,
  normalizerRequirements,
  auditBridgeRequirements,
  proofStreamRequirements,
  clientRequirements,
  proxyRequirements,
  adkStreamRequirements,
  adkServerRequirements,
]);

export function requirement(id: string): Requirement {
  const found = requirements.get(id);
  if (!found) throw new Error(`unknown requirement id '${id}'; see docs/requirements.md for the registry`);
  return found;
}
