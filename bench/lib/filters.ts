/**
 * Runs an NDJSON stdio filter (`adk-conformance transform`, `normalize`, or the echo baseline) as a
 * user does: spawned, input piped in with backpressure, output read to the end. Startup (tsx and
 * module loading) is measured on its own with an empty input, so the steady rate can be separated
 * from it.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { procStatus, repoRoot } from './children.ts';

export type FilterRun = { wallMs: number; inputLines: number; outputLines: number; exitCode: number | null; peakRssKB: number; stderr: string };

export async function runFilter(args: readonly string[], lines: Iterable<string>, env: Record<string, string> = {}): Promise<FilterRun> {
  const start = performance.now();
  const child = spawn(process.execPath, [...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let outputLines = 0;
  let stderr = '';
  let peakRssKB = 0;
  const sample = () => { try { peakRssKB = Math.max(peakRssKB, procStatus(child.pid as number).hwmKB); } catch { /* exited */ } };
  const sampler = setInterval(sample, 50);
  child.stdout.on('data', (chunk: Buffer) => { for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) outputLines++; });
  child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr = (stderr + text).slice(-4096); });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let inputLines = 0;
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const text = batch.join('\n') + '\n';
    batch = [];
    if (child.stdin.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => { child.stdin.off('drain', done); child.off('close', done); resolve(); };
      child.stdin.once('drain', done);
      child.once('close', done);
    });
  };
  child.stdin.on('error', () => { /* the filter exited early; its exit code says so */ });
  for (const line of lines) {
    batch.push(line);
    inputLines++;
    if (batch.length >= 500) await flush();
    if (child.exitCode !== null) break;
  }
  await flush();
  child.stdin.end();
  const exitCode = await exited;
  clearInterval(sampler);
  return { wallMs: performance.now() - start, inputLines, outputLines, exitCode, peakRssKB, stderr };
}
