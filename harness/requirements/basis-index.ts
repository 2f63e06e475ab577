/** Every part's basis records in one table (ids are unique across parts, as in the registry). */
import type { Basis, BasisTable } from './basis.ts';
import { adkServerBasis } from './adk-server-basis.ts';
import { adkStreamBasis } from './adk-stream-basis.ts';
import { auditBridgeBasis } from './audit-bridge-basis.ts';
import { clientBasis } from './client-basis.ts';
import { gatewayBasis } from './gateway-basis.ts';
import { normalizerBasis } from './normalizer-basis.ts';
import { proofStreamBasis } from './proof-stream-basis.ts';
import { proxyBasis } from './proxy-basis.ts';
import { transformerBasis } from './transformer-basis.ts';

export function mergeBasis(tables: BasisTable[]): BasisTable {
  const merged: Record<string, Basis> = {};
  for (const table of tables) {
    for (const [id, basis] of Object.entries(table)) {
      if (id in merged) throw new Error(`requirement ${id} has two basis records; keep one, in the basis file of its part`);
      merged[id] = basis;
    }
  }
  return merged;
}

export const requirementBasis: BasisTable = mergeBasis([gatewayBasis, transformerBasis, normalizerBasis, auditBridgeBasis, proofStreamBasis, clientBasis, proxyBasis, adkStreamBasis, adkServerBasis]);
