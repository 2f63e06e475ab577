/**
 * Memory over long runs (issue 7: "gateway RSS growth under 20 MB over the long run, audit bridge
 * entries back to 0, transformer memory flat in stream length"):
 * - the gateway (spawned `adk-conformance gateway`): VmRSS from /proc at start, after a warm-up,
 *   and after 10,000 invocations of the 100-event stream (1,000,000 events);
 * - the audit bridge: entries held after 10,000 invocations that each record audit events and end
 *   with their final event, and after as many that never end (the bound must hold them);
 * - the transformer as a streaming consumer runs it (spawned, --expose-gc): RSS and heap after a
 *   full GC at growing stream lengths, against the same child only parsing the same input.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createAuditBridge } from '../reference-impl/audit-bridge.ts';
import { cedarCreekId, runBody, workloads, writeScenarioFolder } from './lib/bench-scenarios.ts';
import { procStatus, repoRoot, tsxArgs } from './lib/children.ts';
import { below, figure, type BenchResult, type Figure } from './lib/figures.ts';
import { countedLoop } from './lib/http-load.ts';
import { runFrames } from './lib/pipeline-inputs.ts';
import { getJson, startGatewayChild, startMockChild } from './lib/servers.ts';

export type MemoryBenchOptions = { invocations: number; warmupInvocations: number; concurrency: number; streamLengths: number[]; auditInvocations: number };

export const memoryBenchDefaults: MemoryBenchOptions = { invocations: 10_000, warmupInvocations: 500, concurrency: 16, streamLengths: [10_000, 100_000, 1_000_000], auditInvocations: 10_000 };

export async function benchMemory(options: MemoryBenchOptions = memoryBenchDefaults): Promise<BenchResult> {
  const gateway = await gatewayMemory(options);
  const audit = auditBridgeEntries(options.auditInvocations);
  const transformer = transformerMemory(options.streamLengths);
  const mb = (bytes: number) => bytes / 1048576;
  const { start, warm, half, after } = gateway.afterGc;
  const secondHalf = mb(after.rss - half.rss);
  const eventsPerRun = workloads.long.chunks + 1;
  const figures: Figure[] = [
    figure({ name: `gateway RSS after ${options.invocations.toLocaleString('en')} invocations (${(options.invocations * eventsPerRun).toLocaleString('en')} events)`, unit: 'MB', value: gateway.afterMB, baseline: { name: 'RSS at start', value: gateway.startMB } }),
    figure({ name: `gateway RSS after GC, end of the run (warm-up: ${options.warmupInvocations} invocations)`, unit: 'MB', value: mb(after.rss), baseline: { name: 'after GC, after warm-up', value: mb(warm.rss) } }),
    figure({ name: `gateway RSS growth over the second ${(options.invocations - Math.floor(options.invocations / 2)).toLocaleString('en')} invocations (after GC at both ends)`, unit: 'MB', value: secondHalf, baseline: { name: 'RSS after GC at half-way', value: mb(half.rss) }, goal: below(secondHalf, 20, '< 20 MB') }),
    figure({ name: 'gateway heap used after GC, end of the run', unit: 'MB', value: mb(after.heapUsed), baseline: { name: 'heap used after GC at start', value: mb(start.heapUsed) } }),
    figure({ name: `audit bridge entries after ${audit.invocations.toLocaleString('en')} ended invocations (${audit.recorded.toLocaleString('en')} audit events)`, unit: 'entries', value: audit.endedEntries, baseline: { name: 'entries at start', value: audit.startEntries }, goal: below(audit.endedEntries, 1, 'back to 0') }),
    figure({ name: `audit bridge invocations held after ${audit.invocations.toLocaleString('en')} that never ended`, unit: 'invocations', value: audit.cutInvocations, baseline: { name: 'maxInvocations bound', value: audit.bound } }),
  ];
  const first = transformer.own[0];
  const last = transformer.own.at(-1);
  if (first && last) {
    for (const point of transformer.own) {
      const parse = transformer.parse.find((p) => p.events === point.events);
      figures.push(figure({ name: `transformer RSS after ${point.events.toLocaleString('en')} events in one run (${point.heapMB.toFixed(1)} MB heap)`, unit: 'MB', value: point.rssMB, baseline: parse ? { name: 'parsing the same input', value: parse.rssMB } : null }));
    }
    const heapGrowth = last.heapMB - first.heapMB;
    figures.push(figure({ name: `transformer heap growth from ${first.events.toLocaleString('en')} to ${last.events.toLocaleString('en')} events (flat = bounded)`, unit: 'MB', value: heapGrowth, baseline: { name: `heap at ${first.events.toLocaleString('en')}`, value: first.heapMB }, goal: below(heapGrowth, 4, 'flat (< 4 MB)') }));
  }
  return {
    id: 'memory',
    title: 'memory: gateway RSS over 1M events, audit bridge entries, transformer vs stream length',
    figures,
    notes: [
      `gateway: spawned adk-conformance gateway (JWT on) in front of the spawned mock; ${options.concurrency} concurrent streams of ${workloads.long.id}; VmRSS from /proc/PID/status (no forced GC in the gateway)`,
      'audit bridge: in process, default bounds; each invocation records 7 audit events (one per seed 000 §3.1 type) and ends with its final event; cut invocations record and never end',
      `transformer: spawned with --expose-gc, keepEvents: false (as adk-conformance transform runs it), Cedar Creek streaming frames repeated as one run; figures after a full GC`,
    ],
    details: { gateway, audit, transformer },
  };
}

type Usage = { rss: number; heapUsed: number; heapTotal: number; external: number };
type GatewayMemory = {
  startMB: number; warmMB: number; afterMB: number; peakMB: number; samplesMB: number[];
  /** process.memoryUsage() after a full GC in the gateway, at the same three points. */
  afterGc: { start: Usage; warm: Usage; half: Usage; after: Usage };
  runs: number; events: number; errors: number; elapsedMs: number; openAfter: unknown;
};

async function gatewayMemory(options: MemoryBenchOptions): Promise<GatewayMemory> {
  const folder = writeScenarioFolder([workloads.long], []);
  const probeFile = join(folder.dir, 'gc-probe.json.txt');
  const mock = await startMockChild(folder);
  try {
    const gateway = await startGatewayChild(mock.url, { nodeFlags: ['--expose-gc'], preload: [join(repoRoot, 'bench', 'children', 'gc-probe.ts')], env: { BENCH_GC_PROBE_FILE: probeFile } });
    try {
      const target = { url: gateway.url, path: '/run_sse', body: runBody(workloads.long.id), headers: { authorization: `Bearer ${gateway.token}` } };
      const rss = () => procStatus(gateway.pid).rssKB / 1024;
      const afterGc = async (): Promise<Usage> => probe(gateway.pid, probeFile);
      const startMB = rss();
      const start = await afterGc();
      await countedLoop(target, options.warmupInvocations, options.concurrency);
      const warmMB = rss();
      const warm = await afterGc();
      const samplesMB: number[] = [];
      const sampler = setInterval(() => samplesMB.push(Math.round(rss() * 10) / 10), 500);
      const firstHalf = await countedLoop(target, Math.floor(options.invocations / 2), options.concurrency);
      const half = await afterGc();
      const secondHalf = await countedLoop(target, options.invocations - firstHalf.runs, options.concurrency);
      clearInterval(sampler);
      const load = { runs: firstHalf.runs + secondHalf.runs, events: firstHalf.events + secondHalf.events, errors: firstHalf.errors + secondHalf.errors, badStatus: firstHalf.badStatus + secondHalf.badStatus, elapsedMs: firstHalf.elapsedMs + secondHalf.elapsedMs };
      const afterMB = rss();
      const after = await afterGc();
      const openAfter = await getJson(gateway.url, '/_gateway/stats').catch((error: unknown) => String(error));
      return { startMB, warmMB, afterMB, peakMB: procStatus(gateway.pid).hwmKB / 1024, samplesMB, afterGc: { start, warm, half, after }, runs: load.runs, events: load.events, errors: load.errors + load.badStatus, elapsedMs: load.elapsedMs, openAfter };
    } finally {
      await gateway.stop();
    }
  } finally {
    await mock.stop();
    folder.remove();
  }
}

/** Ask the gc-probe preloaded in `pid` for its memory after a full GC, and wait for the answer. */
export async function probe<T = Usage>(pid: number, file: string, what = 'the gateway', how = 'it must run with --expose-gc and --import bench/children/gc-probe.ts'): Promise<T> {
  const before = existsSync(file) ? statSync(file).mtimeMs : 0;
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (existsSync(file) && statSync(file).mtimeMs !== before) {
      try { return JSON.parse(readFileSync(file, 'utf8')) as T; } catch { /* written while read: try again */ }
    }
  }
  throw new Error(`memory: ${what} (pid ${pid}) did not answer the GC probe within 5 s; ${how}`);
}

type AuditEntries = { invocations: number; recorded: number; startEntries: number; endedEntries: number; endedInvocations: number; cutInvocations: number; cutEvents: number; bound: number; evictedInvocations: number };

/** The audit bridge through `count` ended and `count` cut invocations. */
export function auditBridgeEntries(count: number): AuditEntries {
  const types = ['tool_invocation', 'tool_response', 'tool_error', 'mcp_fetch', 'data_load', 'reasoning_step', 'confidence_calc'];
  const final = JSON.parse(runFrames(cedarCreekId).at(-1) as string) as Record<string, unknown>;
  const bridge = createAuditBridge();
  const startEntries = bridge.stats().events;
  for (let i = 0; i < count; i++) {
    const invocation_id = `inv-${i}`;
    for (const event_type of types) bridge.record({ event_type, invocation_id, tool: 'bench', at: i });
    bridge.observeEvent({ ...final, invocationId: invocation_id });
  }
  const ended = bridge.stats();
  const cut = createAuditBridge();
  for (let i = 0; i < count; i++) for (const event_type of types) cut.record({ event_type, invocation_id: `cut-${i}` });
  const cutStats = cut.stats();
  return { invocations: count, recorded: ended.recorded, startEntries, endedEntries: ended.events, endedInvocations: ended.invocations, cutInvocations: cutStats.invocations, cutEvents: cutStats.events, bound: 1000, evictedInvocations: cutStats.evictedInvocations };
}

type MemoryPoint = { events: number; briefings: number; rssMB: number; heapMB: number };

/** The transformer child and its parse-only baseline at each stream length. */
function transformerMemory(lengths: number[]): { own: MemoryPoint[]; parse: MemoryPoint[] } {
  const run = (mode: 'transformer' | 'parse'): MemoryPoint[] => {
    const args = tsxArgs(`${repoRoot}/bench/children/transformer-memory.ts`, [mode, lengths.join(',')], ['--expose-gc']);
    const out = execFileSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 20 });
    return out.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as MemoryPoint);
  };
  return { own: run('transformer'), parse: run('parse') };
}
