/**
 * The child side of memory-host.ts: one module instance, opened by the part's `openModuleMemory`
 * and driven by IPC messages (`open`, `run`, `read`, and `measure`: the whole measurement here),
 * its heap read after forced collections of this process alone.
 */
import { pathToFileURL } from 'node:url';
import type { ChildReply, MemoryChildSpec } from './memory-host.ts';
import { measureRetention, type Measurable } from './memory-load.ts';
import { fairDeadline } from '../fair-timer.ts';

type Instance = Measurable & { label: string };

let instance: Instance | undefined;

async function open(spec: MemoryChildSpec): Promise<Instance> {
  const part = (await import(pathToFileURL(spec.entry).href)) as { openModuleMemory?: (...args: unknown[]) => Promise<Instance> };
  if (typeof part.openModuleMemory !== 'function') throw new Error(`${spec.entry} exports no openModuleMemory: the memory probe's entry must (memory-host.ts)`);
  return part.openModuleMemory(...spec.args);
}

const send = (reply: ChildReply) => { process.send?.(reply); };

// Nothing here is ever cancelled: the harness cancels a probe by ending this process.
const never = new AbortController().signal;

type Message = { id: number; op: 'open' | 'run' | 'read' | 'measure'; spec?: MemoryChildSpec; args?: [number, number]; remainingMs?: number; unfinished?: string; measured?: number };

process.on('message', (m: Message) => {
  void (async () => {
    try {
      if (m.op === 'open') {
        instance = await open(m.spec as MemoryChildSpec);
        send({ id: m.id, ok: { label: instance.label } });
      } else if (!instance) {
        send({ id: m.id, error: 'the memory probe\'s process has no module open' });
      } else if (m.op === 'run') {
        send({ id: m.id, why: (await instance.run(...(m.args ?? [0, 0]))) ?? null });
      } else if (m.op === 'measure') {
        const observation = await measureRetention(instance, instance.run, never, fairDeadline(m.remainingMs ?? 0, () => undefined).at, m.unfinished ?? 'did not finish', m.measured);
        send({ id: m.id, observation });
      } else {
        send({ id: m.id, value: await instance.read() });
      }
    } catch (error) {
      send({ id: m.id, error: error instanceof Error ? error.message : String(error) });
    }
  })();
});
// The harness went away: so does the probe.
process.on('disconnect', () => process.exit(0));
