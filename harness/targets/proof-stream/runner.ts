/**
 * The proof-layer stream part runner (PLS-*): loads a module exporting
 * `createProofLayerStream(config)` (docs/proof-stream-contract.md) and runs the cases of
 * harness/checks/proof-stream in virtual time, as one probe. It reads no scenario: the stream sits
 * behind the transformer, fed AgentBriefingEvents and proof events, not ADK frames.
 */
import { kitModule } from '../../../core/package-root.ts';
import { existsSync } from 'node:fs';
import { checkProofStream, proofStreamCaseCount, type ProofStreamFactory } from '../../checks/proof-stream/index.ts';
import { proofStreamRequirements } from '../../requirements/proof-stream.ts';
import type { PartRunner } from '../types.ts';
import { exportOf, importModule } from '../load-module.ts';

/** The reference store (reference-impl/proof-layer-stream.ts) already takes the contract's clock. */
export const referenceProofStreamModule: string = kitModule('reference-impl/proof-layer-stream.ts');

export function createProofStreamRunner(target: { module: string }): PartRunner {
  let factory: ProofStreamFactory | undefined;
  let loadError: string | undefined;
  return {
    part: 'proof-stream',
    description: `proof-layer stream module ${target.module}`,
    applies: () => false,
    async start() {
      if (!existsSync(target.module)) { loadError = `module ${target.module} does not exist`; return; }
      try {
        const loaded = await importModule(target.module);
        const create = exportOf(loaded, 'createProofLayerStream');
        if (typeof create !== 'function') loadError = `module ${target.module} exports no createProofLayerStream function; export createProofLayerStream({now, setTimeout, clearTimeout}) => {push, getState, dispose?} (docs/proof-stream-contract.md)`;
        else factory = create as ProofStreamFactory;
      } catch (error) {
        loadError = `module ${target.module} could not be loaded: ${(error as Error).message}`;
      }
    },
    runScenario: async () => ({ outcomes: [], timeline: [] }),
    probes: [{
      id: 'proof-stream',
      requirements: proofStreamRequirements.map((r) => r.id),
      // In virtual time: the machine's clock is never read.
      shared: true,
      run: async () => {
        if (!factory) {
          const reason = loadError ?? 'the module was not loaded';
          return { outcomes: proofStreamRequirements.map((r) => ({ requirement: r.id, scenario: 'probe:proof-stream', status: 'untested' as const, findings: [], reason })), timeline: [{ t: 0, kind: 'note', summary: reason }] };
        }
        return { outcomes: checkProofStream(factory), timeline: [{ t: 0, kind: 'note', summary: `${proofStreamCaseCount} cases in virtual time: tier 1 and what it flushes, the 300 ms buffer, STATUS and aggregate debounces, sequence order within and across windows, retransmissions, repeated citations, completion and confidence history, state snapshots` }] };
      },
    }],
  };
}
