/**
 * Spawned processes: servers under test and their baselines run in their own process, so the
 * load-generating client never shares their event loop, and their memory and CPU time can be
 * read from /proc. Every child is started by us and stopped by its own pid.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `node --import tsx <script>`: TypeScript without the tsx CLI's extra wrapper process, so `pid` is the server itself. */
export function tsxArgs(script: string, args: readonly string[] = [], nodeFlags: readonly string[] = [], preload: readonly string[] = []): string[] {
  return [...nodeFlags, '--import', 'tsx', ...preload.flatMap((file) => ['--import', file]), script, ...args];
}

export type RunningChild = {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the child wrote on stderr so far (for error messages). */
  stderr: () => string;
  stop: () => Promise<void>;
};

export type SpawnServerOptions = {
  args: string[];
  env?: Record<string, string | undefined>;
  /** The first stdout line matching this gives the URL (group 1). */
  ready?: RegExp;
  timeoutMs?: number;
};

/** Spawn `node <args>` and wait until it prints the URL it listens on. */
export function spawnServer(options: SpawnServerOptions): Promise<RunningChild> {
  const ready = options.ready ?? /listening on (http:\/\/\S+)/;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const child = spawn(process.execPath, options.args, { cwd: repoRoot, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => { err = (err + text).slice(-8192); });
  const stop = () => stopChild(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { void stop(); reject(new Error(`spawned server did not print its URL within ${timeoutMs} ms: node ${options.args.join(' ')}\n${err}`)); }, timeoutMs);
    child.on('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`spawned server exited (${signal ?? code}) before it was ready: node ${options.args.join(' ')}\n${err}`)); });
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const match = ready.exec(out);
      if (!match?.[1]) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      out = '';
      resolve({ url: match[1].replace(/[).,]+$/, ''), pid: child.pid as number, child, stderr: () => err, stop });
    });
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child is gone. */
export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => { clearTimeout(kill); resolve(); });
    child.kill('SIGTERM');
  });
}

export type ProcStatus = { rssKB: number; hwmKB: number };

/** VmRSS and VmHWM (peak RSS) of a live process, from /proc/PID/status. */
export function procStatus(pid: number): ProcStatus {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
    if (!match?.[1]) throw new Error(`/proc/${pid}/status has no ${name} line; memory figures need Linux /proc`);
    return Number(match[1]);
  };
  return { rssKB: field('VmRSS'), hwmKB: field('VmHWM') };
}

let clockTicks: number | undefined;

/** A live process's parent and the user + system CPU seconds it has used so far (/proc/PID/stat fields 4, 14 and 15). */
export function procStat(pid: number): { ppid: number; cpuS: number } {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parentheses: fields are counted after its closing ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), cpuS: (Number(fields[11]) + Number(fields[12])) / clockTicks };
}

/** User + system CPU seconds a live process has used so far. */
export function cpuSeconds(pid: number): number {
  return procStat(pid).cpuS;
}
