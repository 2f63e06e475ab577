/**
 * Start-up in words: how long each process of the implementation took to get ready, against the
 * readiness bound it had and the flag that raises it. Start-up is never judged as behaviour; the
 * console and the reports show it so a slow machine or a heavy runtime is visible as such.
 */
import type { StartupRecord } from './model.ts';

export function describeStartup(startup: readonly StartupRecord[]): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const each = startup.map((r) => `${r.part} ${r.instance} ${r.outcome === 'ready' ? `ready after ${s(r.readyMs ?? 0)}` : r.outcome === 'timed-out' ? `timed out (not ready within ${s(r.boundMs)})` : 'failed to start'}`);
  const bounds = [...new Set(startup.map((r) => r.boundMs))].map(s).join(', ');
  return `start-up (not counted as behaviour; readiness bound ${bounds}, --startup-timeout SECONDS raises it): ${each.join(', ')}`;
}
