/**
 * The server-helper part runner (SRV-*, and ADK-* on what it serves): loads a module exporting
 * `createAdkServer({runner})` (docs/adk-server-contract.md) and runs four probes, each with its own
 * real adk-js Runner: fidelity (with the ADK-* judge on the served bytes), abort, backpressure and
 * the empty message. It reads no scenario: the harness's scripts drive the Runner, not the mock.
 */
import { existsSync } from 'node:fs';
import { kitModule } from '../../../core/package-root.ts';
import { loadRealAdk, RealAdkMissingError } from '../../../real-adk/load.ts';
import type { CheckOutcome } from '../../model.ts';
import { adkServerRequirements } from '../../requirements/adk-server.ts';
import { adkStreamRequirements } from '../../requirements/adk-stream.ts';
import { abortProbe, backpressureProbe, emptyProbe, fidelityProbe } from './probes.ts';
import type { AdkServerFactory } from './rig.ts';
import type { PartRunner, Probe } from '../types.ts';
import { exportOf, importModule } from '../load-module.ts';

export const referenceAdkServerModule: string = kitModule('reference-impl/adk-server.ts');

const contract = 'export createAdkServer({runner}) returning a Node request listener (req, res) or an object with fetch(request) => Response (docs/adk-server-contract.md)';

export function createAdkServerRunner(target: { module: string }): PartRunner {
  let factory: AdkServerFactory | undefined;
  let loadError: string | undefined;
  const probe = (id: string, requirements: string[], run: (f: AdkServerFactory) => Promise<CheckOutcome[]>): Probe => ({
    id,
    requirements,
    run: async () => {
      const scenario = `probe:${id}`;
      const untested = (reason: string) => ({ outcomes: requirements.map((r) => ({ requirement: r, scenario, status: 'untested' as const, findings: [], reason })), timeline: [{ t: 0, kind: 'note' as const, summary: reason }] });
      if (!factory) return untested(loadError ?? 'the module was not loaded');
      try {
        return { outcomes: await run(factory), timeline: [{ t: 0, kind: 'note' as const, summary: `${id}: a real adk-js Runner served through the helper on 127.0.0.1` }] };
      } catch (error) {
        // The factory or the Runner could not be set up: nothing was exercised, and the reason says why.
        return untested(`the ${id} probe could not serve the helper: ${(error as Error).message}`);
      }
    },
  });
  return {
    part: 'adk-server',
    alsoJudges: ['adk-stream'],
    description: `server helper module ${target.module}`,
    applies: () => false,
    async start() {
      if (!existsSync(target.module)) { loadError = `module ${target.module} does not exist`; return; }
      try { await loadRealAdk(); } catch (error) {
        loadError = error instanceof RealAdkMissingError ? error.message : `the adk-js runtime could not be loaded: ${(error as Error).message}`;
        return;
      }
      try {
        const loaded = await importModule(target.module);
        const create = exportOf(loaded, 'createAdkServer');
        if (typeof create !== 'function') loadError = `module ${target.module} exports no createAdkServer function; ${contract}`;
        else factory = create as AdkServerFactory;
      } catch (error) {
        loadError = `module ${target.module} could not be loaded: ${(error as Error).message}`;
      }
    },
    runScenario: async () => ({ outcomes: [], timeline: [] }),
    probes: [
      probe('adk-server-fidelity', ['SRV-FID-001', ...adkStreamRequirements.map((r) => r.id)], fidelityProbe),
      probe('adk-server-abort', ['SRV-ABORT-001'], abortProbe),
      probe('adk-server-backpressure', ['SRV-BP-001'], backpressureProbe),
      probe('adk-server-empty-message', ['SRV-EMPTY-001'], emptyProbe),
    ],
  };
}

/** Every requirement this runner judges. */
export const adkServerJudged: readonly string[] = [...adkServerRequirements, ...adkStreamRequirements].map((r) => r.id);
