/**
 * A transformer module loaded under the module contract: its createTransformer, or a function of one
 * event wrapped by the kit (event-function.ts). One place for the runner, the tap and the memory
 * probe's own process (memory-host.ts).
 */
import { existsSync } from 'node:fs';
import { exportOf, importModule } from '../load-module.ts';
import type { ModuleFactory } from './drive.ts';
import { eventFunctionsOf, fromEventFunction } from './event-function.ts';

/** Import a module under the module contract and return its createTransformer (what `start` does; the tap's --transform-module uses it too). */
/** `instance`: import the module afresh (another URL), so its top-level state is new (the long-lived probe's baselines). */
export async function loadTransformerModule(path: string, instance?: number): Promise<ModuleFactory> {
  if (!existsSync(path)) throw new Error(`transformer module ${path} does not exist; pass the path of a module exporting createTransformer (docs/harness.md "Module contract")`);
  const loaded = await importModule(path, instance);
  const create = exportOf(loaded, 'createTransformer');
  if (typeof create === 'function') return create as ModuleFactory;
  // A function of one event (issue 31 §3): the kit plays the client around it.
  const perEvent = eventFunctionsOf(loaded);
  if (perEvent) return fromEventFunction(perEvent.transformEvent, perEvent.endOfStream);
  throw new Error(`transformer module ${path} exports neither createTransformer nor transformEvent; export createTransformer({onEvent, idleMs, sessionId?, enhanced?}) => {push(line), end(), dispose?()}, or transformEvent(event, context) => briefing | briefing[] | null with an optional endOfStream(context) (docs/harness.md "Module contract")`);
}
