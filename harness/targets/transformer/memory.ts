/**
 * The transformer's memory probe (issue 30 §2, ABE-MEM-001): thousands of short runs through one
 * long-lived instance, the memory read after every batch, judged by the gateway's statistics
 * (harness/checks/memory-retention.ts). Counted by runs, never by time.
 *
 * - A module runs in a Node process of the probe's own (memory-host.ts): 1,000 warm-up runs, then
 *   10,000 with that process's V8 heap in use plus external memory read after a forced full
 *   collection every 1,000 (metric `heap`). Nothing of the harness allocates there, so the probe
 *   runs beside the rest of the certification, as a session command's does (memory-load.ts says why).
 * - A session-form command (docs/session-protocol.md): one session process, runs 8 at a time; an
 *   adaptive warm-up (as GW-MEM-002's), then batches of 500 with the RSS of the process's group
 *   (/proc) read after each, until memoryProgress says the verdict is clear, never before 10,000
 *   measured runs.
 * - A one-shot command has nothing to retain: not applicable (transformer.ts).
 *
 * Each run is plain_text rendered by the mock's renderer, its ids made the run's own (a leak keyed
 * by invocation or event id must grow), under one session id per run slot: state kept per session
 * (ABE-CORR-002) stays bounded, as in an app whose users come back.
 */
import type { Dialect } from '../../../mock-adk/core/types.ts';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { checkRetention, memoryRequirement } from '../../checks/transformer/memory.ts';
import type { MemorySettings } from '../../checks/memory-retention.ts';
import { heapAfterCollection, memoryProbeAdmission, longLivedMemorySettings, measureInstance, memoryLoad, memoryProbeExtraMs, runRetentionProbe, type Measurable, type RunOne } from '../memory-load.ts';
import type { ChildScript, ChildObservation } from '../../child.ts';
import type { Probe, RunEnv, ScenarioCheck } from '../types.ts';
import { captureFromPlan } from './capture.ts';
import type { ModuleFactory } from './drive.ts';
import { groupRss } from '../process-memory.ts';
import { openMemoryChild } from '../memory-host.ts';
import { loadTransformerModule } from './load.ts';
import { kitModule } from '../../../core/package-root.ts';

export const memoryProbeId = 'transformer-memory';

export const oneShotMemory = 'a one-shot command starts a fresh process per run: a finished run leaves nothing behind in a process that lives on (a command speaking the session form, docs/session-protocol.md, has this judged)';

/** One run: undefined once it gave a terminal briefing, else why not. */
type RunOnce = (lines: string[], sessionId: string) => Promise<string | undefined>;

/** `run(n, slot)`: run `n`'s frames (runsOf) in slot `slot`'s session; `read`: RSS of the process group, or the heap after a forced collection. */
export type MemoryInstance = Measurable & { label: string; close: () => Promise<void> };

export { memoryLoad };

/** The settings ABE-MEM-001 judges with: GW-MEM-002's, with no verdict before 10,000 measured runs. */
export const transformerMemorySettings: MemorySettings = longLivedMemorySettings;

const terminal = /"state"\s*:\s*"(COMPLETE|ERROR)"/;

/** A session process's runs, 8 at a time, read from outside. */
export function sessionMemory(pool: { runChild: (s: ChildScript) => Promise<ChildObservation>; pid: () => number | undefined; close: () => Promise<void> }, command: string, idleMs: number, seed: number): MemoryInstance {
  return {
    label: 'one session process',
    metric: 'rss',
    run: runsOf(seed, async (lines, sessionId) => {
      const obs = await pool.runChild({ command, env: { ADK_CONFORMANCE_SESSION_ID: sessionId, ADK_CONFORMANCE_IDLE_MS: String(idleMs) }, input: lines.map((text) => ({ text })), timeoutMs: 5000, killGraceMs: 500, maxStdoutBytes: 1024 * 1024 });
      if (obs.lines.some((l) => terminal.test(l.text))) return undefined;
      return obs.spawnError ?? (obs.timedOut ? 'timed out' : `no terminal briefing (exit ${obs.exitCode ?? obs.signal})`);
    }),
    read: () => { const pid = pool.pid(); return pid === undefined ? { error: 'the session process is gone' } : groupRss(pid); },
    pid: pool.pid,
    close: () => pool.close(),
  };
}

/** Run in the probe's own process (memory-child.ts): the module loaded there, one instance. */
export async function openModuleMemory(module: string, idleMs: number, seed: number): Promise<MemoryInstance> {
  return moduleMemory(await loadTransformerModule(module), idleMs, seed);
}

/** One instance of `module` in a process of the probe's own (memory-host.ts), measured there. */
export async function childModuleMemory(module: string, idleMs: number, seed: number): Promise<MemoryInstance> {
  const remote = await openMemoryChild({ entry: kitModule('harness/targets/transformer/memory.ts'), args: [module, idleMs, seed] });
  return { label: remote.label, metric: remote.metric, read: remote.read, run: remote.run, measureHere: remote.measureHere, pid: remote.pid, close: remote.close };
}

/** One module instance's runs in this process (the memory child's), read after a forced collection. */
export function moduleMemory(factory: ModuleFactory, idleMs: number, seed: number): MemoryInstance {
  const heap = heapAfterCollection();
  return {
    label: 'one module instance',
    metric: 'heap',
    run: runsOf(seed, (lines, sessionId) => new Promise((resolve) => {
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (why: string | undefined) => { if (done) return; done = true; clearTimeout(timer); resolve(why); };
      try {
        let t: ReturnType<ModuleFactory> | undefined;
        const onEvent = (e: unknown) => {
          const state = (e as { state?: unknown } | null)?.state;
          if (state === 'COMPLETE' || state === 'ERROR') { t?.dispose?.(); finish(undefined); }
        };
        t = factory({ idleMs, sessionId, onEvent });
        for (const line of lines) t.push(line);
        t.end();
        if (!done) timer = setTimeout(() => { t?.dispose?.(); finish('no terminal briefing within 2 s of the end of its input'); }, 2000);
      } catch (error) {
        finish(`threw: ${(error as Error).message}`);
      }
    })),
    read: heap,
    close: async () => {},
  };
}

/** The run's frames with its ids made its own: the invocation id and every ADK event id. */
function framesOf(template: string[], n: number): string[] {
  return template.map((l) => l.replace(/"(invocationId|id)":"([^"]+)"/g, (_, k: string, v: string) => `"${k}":"${v}-m${n}"`));
}

/**
 * The probe's runs through `run`: run `n` is plain_text rendered by the mock's renderer with its ids
 * made its own, in slot `slot`'s session (one per slot, under the certification's seed).
 */
function runsOf(seed: number, run: RunOnce): RunOne {
  let template: string[] | undefined;
  return (n, slot) => {
    template ??= plainTextFrames();
    return run(framesOf(template, n), `adk-conformance-memory-${seed}-${slot}`);
  };
}

function plainTextFrames(): string[] {
  const scenario = loadScenarios().scenarios.find((s) => s.id === 'plain_text');
  if (!scenario) throw new Error('the kit\'s corpus lacks plain_text: reinstall adk-conformance');
  return captureFromPlan(scenario, scenario.dialect as Dialect).frames.map((f) => f.data);
}

/** The probe's room beyond the scenario bound (memory-load.ts): 11,000 and more runs. */
export const memoryExtraMs = memoryProbeExtraMs;

/**
 * `open`: the instance every run of the probe shares; undefined for a one-shot command (not
 * applicable). A background job (memoryProbeAdmission says why).
 */
export function createMemoryProbe(open: (env: RunEnv) => Promise<MemoryInstance | undefined>): Probe {
  return {
    id: memoryProbeId,
    ...memoryProbeAdmission,
    requirements: [memoryRequirement],
    run: (env): Promise<ScenarioCheck> => runRetentionProbe({
      requirement: memoryRequirement, probe: `probe:${memoryProbeId}`, notApplicable: oneShotMemory, open,
      measure: (instance, e, began) => measureInstance(instance, e.signal, began + e.scenarioTimeoutMs + memoryExtraMs - 3000, 'gave no terminal briefing'),
      judge: checkRetention,
      counted: (o, label) => `${o.runs} runs of ${label} after ${o.warmupRuns} warm-up runs`,
    }, env),
  };
}
