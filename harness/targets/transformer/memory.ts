/**
 * The transformer's memory probe (issue 30 §2, ABE-MEM-001): thousands of short runs through one
 * long-lived instance, the memory read after every batch, judged by the gateway's statistics
 * (harness/checks/memory-retention.ts). Counted by runs, never by time.
 *
 * - A module runs in the harness's own process: 1,000 warm-up runs, then 10,000 with the V8 heap
 *   in use plus external memory read after a forced full collection every 1,000 (metric `heap`).
 *   The engine runs a probe alone, so nothing else allocates meanwhile.
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
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Dialect } from '../../../mock-adk/core/types.ts';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { checkRetention, memoryRequirement } from '../../checks/transformer/memory.ts';
import { memoryDefaults, memoryProgress, memoryTrail, type MemoryObservation, type MemorySample, type MemorySettings } from '../../checks/memory-retention.ts';
import type { ChildScript, ChildObservation } from '../../child.ts';
import type { Probe, RunEnv, ScenarioCheck } from '../types.ts';
import { captureFromPlan } from './capture.ts';
import type { ModuleFactory } from './drive.ts';
import { groupRss } from '../process-memory.ts';

export const memoryProbeId = 'transformer-memory';

export const oneShotMemory = 'a one-shot command starts a fresh process per run: a finished run leaves nothing behind in a process that lives on (a command speaking the session form, docs/session-protocol.md, has this judged)';

/** One run: undefined once it gave a terminal briefing, else why not. */
type RunOnce = (lines: string[], sessionId: string) => Promise<string | undefined>;

export type MemoryInstance = {
  label: string;
  metric: 'rss' | 'heap';
  run: RunOnce;
  /** The memory now: RSS of the process group, or the heap after a forced collection. */
  read: () => number | { error: string };
  close: () => Promise<void>;
};

export const memoryLoad = { concurrency: 8, warmupRuns: 1000, maxWarmupRuns: 5000, warmupGrowthBytes: 6 * 1024 * 1024, batch: 500, heapRuns: 10_000, heapBatch: 1000, measuredRuns: 10_000 } as const;

/** The settings ABE-MEM-001 judges with: GW-MEM-002's, with no verdict before 10,000 measured runs. */
export const transformerMemorySettings: MemorySettings = { ...memoryDefaults, minRuns: memoryLoad.measuredRuns, minFastRuns: memoryLoad.measuredRuns };

const terminal = /"state"\s*:\s*"(COMPLETE|ERROR)"/;

/** A session process's runs, 8 at a time, read from outside. */
export function sessionMemory(pool: { runChild: (s: ChildScript) => Promise<ChildObservation>; pid: () => number | undefined; close: () => Promise<void> }, command: string, idleMs: number): MemoryInstance {
  return {
    label: 'one session process',
    metric: 'rss',
    run: async (lines, sessionId) => {
      const obs = await pool.runChild({ command, env: { ADK_CONFORMANCE_SESSION_ID: sessionId, ADK_CONFORMANCE_IDLE_MS: String(idleMs) }, input: lines.map((text) => ({ text })), timeoutMs: 5000, killGraceMs: 500, maxStdoutBytes: 1024 * 1024 });
      if (obs.lines.some((l) => terminal.test(l.text))) return undefined;
      return obs.spawnError ?? (obs.timedOut ? 'timed out' : `no terminal briefing (exit ${obs.exitCode ?? obs.signal})`);
    },
    read: () => { const pid = pool.pid(); return pid === undefined ? { error: 'the session process is gone' } : groupRss(pid); },
    close: () => pool.close(),
  };
}

let gc: (() => void) | undefined;
/** global.gc without --expose-gc on the command line: the flag set at run time, the function taken from a new context. */
function forceGc(): () => void {
  if (gc) return gc;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return (gc = exposed);
  v8.setFlagsFromString('--expose_gc');
  return (gc = vm.runInNewContext('gc') as () => void);
}

/** One module instance's runs in the harness's process, read after a forced collection. */
export function moduleMemory(factory: ModuleFactory, idleMs: number): MemoryInstance {
  const collect = forceGc();
  return {
    label: 'one module instance',
    metric: 'heap',
    run: (lines, sessionId) => new Promise((resolve) => {
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
    }),
    read: () => { collect(); collect(); const m = process.memoryUsage(); return m.heapUsed + m.external; },
    close: async () => {},
  };
}

/** The run's frames with its ids made its own: the invocation id and every ADK event id. */
function framesOf(template: string[], n: number): string[] {
  return template.map((l) => l.replace(/"(invocationId|id)":"([^"]+)"/g, (_, k: string, v: string) => `"${k}":"${v}-m${n}"`));
}

async function measure(instance: MemoryInstance, env: RunEnv, deadline: number): Promise<MemoryObservation | { error: string }> {
  const scenario = loadScenarios().scenarios.find((s) => s.id === 'plain_text');
  if (!scenario) throw new Error('the kit\'s corpus lacks plain_text: reinstall adk-conformance');
  const template = captureFromPlan(scenario, scenario.dialect as Dialect).frames.map((f) => f.data);
  const timeUp = () => performance.now() >= deadline || env.signal.aborted;
  let n = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const runs = async (count: number): Promise<number> => {
    let next = 0;
    let done = 0;
    const slot = async (k: number) => {
      while (next < count && !timeUp()) {
        next++;
        const why = await instance.run(framesOf(template, ++n), `adk-conformance-memory-${env.seed}-${k}`);
        done++;
        if (why !== undefined) { failed++; firstFailure ??= why; }
        // Modules answer synchronously: let timers and I/O run now and then.
        if (done % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all(Array.from({ length: memoryLoad.concurrency }, (_, k) => slot(k)));
    return done;
  };
  const read = (): number | { error: string } => instance.read();
  const timedOut = (done: number) => ({ error: `timed out: the warm-up had done ${done} runs when the probe's bound ran out, so nothing was measured; raise the bound with --timeout-ms` });
  const settings = transformerMemorySettings;
  let warmup = 0;
  if (instance.metric === 'heap') {
    warmup = await runs(memoryLoad.warmupRuns);
    if (warmup < memoryLoad.warmupRuns) return timedOut(warmup);
  } else {
    const history: number[] = [];
    for (;;) {
      warmup += await runs(memoryLoad.batch);
      if (timeUp()) return timedOut(warmup);
      const r = read();
      if (typeof r !== 'number') return r;
      history.push(r);
      const back = history.at(-1 - Math.round(1000 / memoryLoad.batch));
      const settled = back !== undefined && r - back < memoryLoad.warmupGrowthBytes;
      if (warmup >= memoryLoad.maxWarmupRuns || (warmup >= memoryLoad.warmupRuns && settled)) break;
    }
  }
  if (failed > warmup / 2) return { error: `${failed} of ${warmup} warm-up runs gave no terminal briefing (${firstFailure ?? 'no message'}), so the memory of finished runs cannot be measured` };
  const first = read();
  if (typeof first !== 'number') return first;
  const samples: MemorySample[] = [{ afterRuns: 0, rssBytes: first }];
  let stoppedBy: MemoryObservation['stoppedBy'] = 'runs';
  const batch = instance.metric === 'heap' ? memoryLoad.heapBatch : memoryLoad.batch;
  for (let done = 0; ;) {
    const ran = await runs(batch);
    if (ran < batch) { stoppedBy = 'time'; break; }
    done += batch;
    const r = read();
    if (typeof r !== 'number') return r;
    samples.push({ afterRuns: done, rssBytes: r });
    if (instance.metric === 'heap') { if (done >= memoryLoad.heapRuns) break; continue; }
    const verdict = memoryProgress(samples, settings);
    if (verdict !== 'continue') { stoppedBy = verdict; break; }
  }
  if (env.signal.aborted) return { error: 'the memory probe was cancelled before its runs were done' };
  return { metric: instance.metric, warmupRuns: warmup, runs: samples.at(-1)?.afterRuns ?? 0, failedRuns: failed, samples, settings, stoppedBy, ...(firstFailure !== undefined ? { firstFailure } : {}) };
}

/** `open`: the instance every run of the probe shares; undefined for a one-shot command (not applicable). */
export function createMemoryProbe(open: () => Promise<MemoryInstance | undefined>): Probe {
  return {
    id: memoryProbeId,
    requirements: [memoryRequirement],
    async run(env): Promise<ScenarioCheck> {
      const probe = `probe:${memoryProbeId}`;
      const began = performance.now();
      const instance = await open();
      if (!instance) return { outcomes: [{ requirement: memoryRequirement, scenario: probe, status: 'untested', findings: [], reason: oneShotMemory }], timeline: [] };
      try {
        const o = await measure(instance, env, began + env.scenarioTimeoutMs - 3000);
        const seconds = ((performance.now() - began) / 1000).toFixed(1);
        const summary = 'error' in o ? o.error
          : `${o.runs} runs of ${instance.label} after ${o.warmupRuns} warm-up runs in ${seconds} s (stopped: ${o.stoppedBy}); ${o.metric === 'heap' ? 'V8 heap in use + external memory after a forced collection' : 'RSS of its process group'} ${memoryTrail(o.samples, 10)}`;
        return { outcomes: checkRetention(probe, instance.label, o), timeline: [{ t: 0, kind: 'note', summary }] };
      } finally {
        await instance.close();
      }
    },
  };
}
