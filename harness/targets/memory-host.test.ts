/**
 * A module's memory probe in a process of its own (memory-host.ts): the child loads the module with
 * the part's loader, runs what it is asked, reads its own heap; a module that cannot load, or that
 * ends the process, gives a reason, never a hang or a crash of the harness.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemoryChild, type RemoteMemory } from './memory-host.ts';
import { referenceTransformerModule } from './transformer/runner.ts';
import { childModuleMemory, createMemoryProbe } from './transformer/memory.ts';

const transformerEntry = join(import.meta.dirname, 'transformer', 'memory.ts');

const dir = mkdtempSync(join(tmpdir(), 'adk-memory-host-'));
const fixture = (name: string, text: string) => { const path = join(dir, name); writeFileSync(path, text); return path; };
const opened: RemoteMemory[] = [];
afterAll(async () => { await Promise.all(opened.map((o) => o.close())); });

describe('openMemoryChild', () => {
  it('runs the reference transformer module in its own process and reads that process\'s heap', async () => {
    const remote = await openMemoryChild({ entry: transformerEntry, args: [referenceTransformerModule, 100, 1] });
    opened.push(remote);
    expect(remote.label).toBe('one module instance');
    expect(await remote.run(1, 0)).toBeUndefined();
    const heap = await remote.read();
    expect(typeof heap).toBe('number');
    expect(heap as number).toBeGreaterThan(1024 * 1024);
  }, 30_000);

  it('measures in its own process: one message for the warm-up, the runs and every reading', async () => {
    const remote = await openMemoryChild({ entry: transformerEntry, args: [referenceTransformerModule, 100, 1] });
    opened.push(remote);
    const o = await remote.measureHere(60_000, 'gave no terminal briefing', 2000);
    if ('error' in o) throw new Error(o.error);
    expect(o.metric).toBe('heap');
    expect([o.warmupRuns, o.runs, o.failedRuns]).toEqual([1000, 2000, 0]);
    expect(o.samples.map((x) => x.afterRuns)).toEqual([0, 500, 1000, 1500, 2000]);
  }, 60_000);

  it('a measurement that runs out of its time says so', async () => {
    const remote = await openMemoryChild({ entry: transformerEntry, args: [referenceTransformerModule, 100, 1] });
    opened.push(remote);
    expect(await remote.measureHere(0, 'gave no terminal briefing', 2000)).toEqual({ error: expect.stringMatching(/^timed out: the warm-up had done 0 runs/) });
  }, 60_000);

  it('refuses a module that throws as it loads, with the module\'s own message', async () => {
    const broken = fixture('broken.mjs', 'throw new Error("no config file at ./transformer.json");\n');
    await expect(openMemoryChild({ entry: transformerEntry, args: [broken, 100, 1] })).rejects.toThrow(/no config file at \.\/transformer\.json/);
  }, 30_000);

  it('a module that ends the process mid-run: the run and every later read give the reason, the harness goes on', async () => {
    const exits = fixture('exits.mjs', 'export function createTransformer() { return { push() { process.exit(3); }, end() {} }; }\n');
    const remote = await openMemoryChild({ entry: transformerEntry, args: [exits, 100, 1] });
    opened.push(remote);
    expect(await remote.run(1, 0)).toMatch(/exited \(code 3\)/);
    expect(await remote.read()).toEqual({ error: expect.stringMatching(/exited \(code 3\)/) });
  }, 30_000);

  it('a probe whose module does not open in its own process leaves ABE-MEM-001 untested with the module\'s message, never a harness error', async () => {
    const picky = fixture('picky.mjs', 'if (process.execArgv.includes("--expose-gc")) throw new Error("refuses to run with --expose-gc");\nexport function createTransformer() { return { push() {}, end() {} }; }\n');
    const probe = createMemoryProbe(() => childModuleMemory(picky, 100, 1));
    expect(probe.background).toBe(true);
    const check = await probe.run({ mockUrl: 'http://127.0.0.1:9', seed: 1, scenarioTimeoutMs: 10_000, signal: new AbortController().signal });
    expect(check.outcomes).toEqual([expect.objectContaining({ requirement: 'ABE-MEM-001', status: 'untested', reason: expect.stringMatching(/could not open the module in its own process: .*refuses to run with --expose-gc/) })]);
  }, 30_000);
});
