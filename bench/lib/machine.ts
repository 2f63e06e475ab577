/**
 * The machine a run was taken on. Figures from a shared 2-core box are noisy, so the load average
 * at the start (and at the end) is recorded with them: a reader can tell a quiet run from a busy one.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export type Machine = {
  cores: number;
  cpuModel: string;
  node: string;
  platform: string;
  totalMemoryMB: number;
  /** os.loadavg() at the start of the run: 1, 5 and 15 minutes. */
  loadAverageAtStart: [number, number, number];
  /** The soft limit on open files of the benchmark process ('unknown' when the shell cannot say). */
  openFilesLimit: number | 'unlimited' | 'unknown';
};

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cores: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    totalMemoryMB: Math.round(os.totalmem() / 1024 / 1024),
    loadAverageAtStart: loadAverage(),
    openFilesLimit: openFilesLimit(),
  };
}

export function loadAverage(): [number, number, number] {
  const [a = 0, b = 0, c = 0] = os.loadavg();
  return [round2(a), round2(b), round2(c)];
}

/** `ulimit -n` as the shell reports it for this process's children (which inherit our limit). */
export function openFilesLimit(): number | 'unlimited' | 'unknown' {
  try {
    const text = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    if (text === 'unlimited') return 'unlimited';
    const n = Number(text);
    return Number.isInteger(n) ? n : 'unknown';
  } catch {
    return 'unknown';
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
