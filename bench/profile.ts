/**
 * `npx tsx bench/profile.ts mock|gateway|tap [--seconds N] [--concurrency N] [--workload long|cedar|short]`:
 * run the server under load with `node --cpu-prof` and print where its CPU time goes. This is
 * the profile a hot-path fix is justified by (docs/performance.md); the .cpuprofile files stay in
 * reports/bench/profiles/ for Chrome DevTools or speedscope.
 *
 * In-process parts (transformer, normaliser) are profiled by running the runner itself:
 *   node --cpu-prof --cpu-prof-dir reports/bench/profiles --import tsx bench/main.ts --only transformer --quick
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cedarCreekStreamingId, runBody, workloads, writeScenarioFolder } from './lib/bench-scenarios.ts';
import { repoRoot, spawnServer, tsxArgs } from './lib/children.ts';
import { compileChild } from './lib/compiled.ts';
import { summarizeCpuProfile, type HotFunction } from './lib/cpu-profile.ts';
import { closedLoop } from './lib/http-load.ts';
import { startGatewayChild, startMockChild, startPlainChild } from './lib/servers.ts';

const usage = 'usage: npx tsx bench/profile.ts mock|gateway|tap [--seconds N] [--concurrency N] [--workload long|cedar|short]';

export async function profileServer(which: 'mock' | 'gateway' | 'tap', seconds: number, concurrency: number, workload: 'long' | 'cedar' | 'short'): Promise<{ file: string; summary: ReturnType<typeof summarizeCpuProfile> }> {
  const dir = join(repoRoot, 'reports', 'bench', 'profiles', `${which}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  const flags = ['--cpu-prof', '--cpu-prof-dir', dir];
  const folder = writeScenarioFolder();
  const app = workload === 'long' ? workloads.long.id : workload === 'short' ? workloads.short.id : cedarCreekStreamingId;
  if (which === 'tap') {
    // The tap (role adk, report collector; bench/children/tap-arm.ts) in front of the plain server replaying the mock's bytes.
    const upstream = await startPlainChild(folder);
    try {
      // Compiled, as bench/tap.ts measures it (bench/lib/compiled.ts): a tsx run's profile is a third tsx's own keepNames wrappers.
      const tap = await spawnServer({ args: [...flags, compileChild('bench/children/tap-arm.ts'), 'tap', upstream.url] });
      try {
        await closedLoop({ target: { url: tap.url, path: '/run_sse', body: runBody(app), headers: { accept: 'text/event-stream' } }, concurrency, durationMs: seconds * 1000 });
      } finally {
        await tap.stop();
      }
    } finally {
      await upstream.stop();
      folder.remove();
    }
    return summarize(dir, which);
  }
  const mock = await startMockChild(folder, which === 'mock' ? flags : []);
  try {
    if (which === 'mock') {
      await closedLoop({ target: { url: mock.url, path: '/run_sse', body: runBody(app) }, concurrency, durationMs: seconds * 1000 });
    } else {
      const gateway = await startGatewayChild(mock.url, { nodeFlags: flags });
      try {
        await closedLoop({ target: { url: gateway.url, path: '/run_sse', body: runBody(app), headers: { authorization: `Bearer ${gateway.token}` } }, concurrency, durationMs: seconds * 1000 });
      } finally {
        await gateway.stop();
      }
    }
  } finally {
    await mock.stop();
    folder.remove();
  }
  return summarize(dir, which);
}

function summarize(dir: string, which: string): { file: string; summary: ReturnType<typeof summarizeCpuProfile> } {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile was written in ${dir}: the ${which} process must exit normally on SIGTERM for --cpu-prof to write it`);
  const summary = summarizeCpuProfile(join(dir, file));
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  return { file: join(dir, file), summary };
}

function show(title: string, rows: HotFunction[], key: 'selfShare' | 'totalShare'): string {
  const lines = rows.map((r) => `  ${(r[key] * 100).toFixed(1).padStart(5)}%  ${r.name}  ${r.where}`);
  return [title, ...lines].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { seconds: { type: 'string' }, concurrency: { type: 'string' }, workload: { type: 'string' } } });
  const which = positionals[0];
  if (which !== 'mock' && which !== 'gateway' && which !== 'tap') { process.stderr.write(`${usage}\n`); return 2; }
  const seconds = Number(values.seconds ?? 5);
  const concurrency = Number(values.concurrency ?? 16);
  const workload = values.workload ?? 'long';
  if (!(seconds > 0) || !Number.isInteger(concurrency) || concurrency < 1 || (workload !== 'long' && workload !== 'cedar' && workload !== 'short')) { process.stderr.write(`${usage}\n`); return 2; }
  const { file, summary } = await profileServer(which, seconds, concurrency, workload);
  process.stdout.write(`${file} (${summary.totalMs} ms sampled)\n${show('self time', summary.bySelf, 'selfShare')}\n${show('total time', summary.byTotal, 'totalShare')}\n`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2));
