/**
 * The server-helper mutants: the reference route (reference-impl/adk-server.ts) with one defect
 * each, run through `--adk-server-module <file>` as a team's helper is;
 * harness/mutants/adk-server.mutants.test.ts proves each kills exactly the requirement it names.
 */
import { fileURLToPath } from 'node:url';
import type { Mutant } from '../types.ts';

const moduleOf = (id: string): string => fileURLToPath(new URL(`./modules/${id}.ts`, import.meta.url));
const m = (id: string, kills: string[], description: string): Mutant => ({ id, part: 'adk-server', description, kills, target: { adkServer: { module: moduleOf(id) } } });

export const adkServerMutants: Mutant[] = [
  m('adk-server-drops-fields', ['SRV-FID-001'], 'events are serialised through a fixed list of fields: modelVersion, nodeInfo, output, actions.endOfAgent and parts\' thoughtSignature are dropped'),
  m('adk-server-no-abort', ['SRV-ABORT-001'], 'the route passes no abortSignal and keeps pulling the Runner after the client left'),
  m('adk-server-no-backpressure', ['SRV-BP-001'], 'each event is written without waiting for the socket to drain'),
  m('adk-server-empty-runs-model', ['SRV-EMPTY-001'], 'a message with only an empty text part is handed to the Runner, which calls the model'),
  m('adk-server-preamble-comment', ['ADK-SSE-002'], 'a `: stream open` comment line opens the stream'),
];
