/**
 * The mutant registry: every part keeps its own list; this merges them, refusing duplicate ids
 * and kills of unknown requirements at load.
 */
import { requirements } from '../requirements/index.ts';
import type { Mutant } from './types.ts';
import { transformerMutants } from './transformer/index.ts';
import { gatewayMutants } from './gateway/index.ts';
import { normalizerMutants } from './normalizer/index.ts';
import { auditBridgeMutants } from './audit-bridge/index.ts';
import { clientMutants } from './client/index.ts';
import { proofStreamMutants } from './proof-stream/index.ts';
import { proxyMutants } from './proxy/index.ts';
import { adkServerMutants } from './adk-server/index.ts';
import { tapMutants } from './tap.ts';

export function buildMutantRegistry(lists: Mutant[][]): Mutant[] {
  const seen = new Set<string>();
  for (const m of lists.flat()) {
    if (seen.has(m.id)) throw new Error(`mutant id ${m.id} is defined twice`);
    seen.add(m.id);
    if (m.kills.length === 0) throw new Error(`mutant ${m.id} kills no requirement; a mutant exists to prove a check can fail`);
    for (const id of m.kills) if (!requirements.has(id)) throw new Error(`mutant ${m.id} names unknown requirement ${id}`);
  }
  return lists.flat();
}

export const mutants: Mutant[] = buildMutantRegistry([transformerMutants, gatewayMutants, normalizerMutants, auditBridgeMutants, clientMutants, proofStreamMutants, proxyMutants, adkServerMutants]);

/**
 * mutant id -> the requirements it kills (what reports use for "proven by"): the certification
 * mutants and the tap's defective upstreams (tap/mutants.test.ts proves those through a real tap).
 */
export const mutantKills: Record<string, string[]> = Object.fromEntries([...mutants, ...tapMutants].map((m) => [m.id, [...m.kills]]));
for (const m of tapMutants) {
  if (mutants.some((x) => x.id === m.id)) throw new Error(`mutant id ${m.id} is defined twice`);
  for (const id of m.kills) if (!requirements.has(id)) throw new Error(`mutant ${m.id} names unknown requirement ${id}`);
}
