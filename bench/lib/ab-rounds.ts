/**
 * Side-by-side measurement: the server under test and its baselines take turns, round after round
 * (A B C, C B A...), under the same client and concurrency, so a burst of load from someone else
 * on this shared machine lands on both sides rather than on one.
 */
import { cpuSeconds } from './children.ts';
import { closedLoop, type StreamSample, type Target } from './http-load.ts';

export type Side = {
  name: string;
  target: Target;
  /** Processes whose CPU time is this side's cost (the server, and the mock behind a gateway). */
  pids: readonly number[];
};

export type SideTotals = {
  name: string;
  runs: number;
  events: number;
  bytes: number;
  errors: number;
  badStatus: number;
  firstError?: string;
  elapsedMs: number;
  /** CPU seconds the side's processes used during its rounds. */
  cpuSeconds: number;
  samples: StreamSample[];
  /** Each round on its own, in order (for medians: one burst of someone else's load moves one round, not the figure). */
  perRound: RoundTotals[];
};

export type RoundTotals = { runs: number; cpuSeconds: number; elapsedMs: number };

export type AbOptions = { rounds: number; durationMs: number; concurrency: number; keepSamples?: boolean; recordEventTimes?: boolean; /** Paced load (closedLoop): the same offered rate to every side. */ ratePerSecond?: number };

/** Every side in turn, the order rotating each round, so no side always runs first or last. */
export async function abRounds<S extends readonly Side[]>(sides: S, options: AbOptions): Promise<{ [K in keyof S]: SideTotals }> {
  if (!Number.isInteger(options.rounds) || options.rounds < 1) throw new RangeError(`abRounds: rounds must be a positive integer, got ${options.rounds}`);
  if (sides.length === 0) throw new RangeError('abRounds: give at least one side');
  const totals = sides.map((side): SideTotals => ({ name: side.name, runs: 0, events: 0, bytes: 0, errors: 0, badStatus: 0, elapsedMs: 0, cpuSeconds: 0, samples: [], perRound: [] }));
  for (let round = 0; round < options.rounds; round++) {
    const order = sides.map((_, i) => (i + round) % sides.length);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const side = sides[i] as Side;
      const total = totals[i] as SideTotals;
      const cpuBefore = side.pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      const result = await closedLoop({ target: side.target, concurrency: options.concurrency, durationMs: options.durationMs, keepSamples: options.keepSamples === true, recordEventTimes: options.recordEventTimes === true, ...(options.ratePerSecond !== undefined ? { ratePerSecond: options.ratePerSecond } : {}) });
      const cpu = side.pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore;
      total.cpuSeconds += cpu;
      total.perRound.push({ runs: result.runs, cpuSeconds: cpu, elapsedMs: result.elapsedMs });
      total.runs += result.runs;
      total.events += result.events;
      total.bytes += result.bytes;
      total.errors += result.errors;
      total.badStatus += result.badStatus;
      total.elapsedMs += result.elapsedMs;
      if (result.firstError !== undefined) total.firstError ??= result.firstError;
      if (options.keepSamples) total.samples.push(...result.samples);
    }
  }
  return totals as { [K in keyof S]: SideTotals };
}

export const perSecond = (count: number, ms: number) => (ms > 0 ? (count * 1000) / ms : 0);

/** CPU µs the side's processes spent per delivered event. */
export const cpuPerEvent = (t: SideTotals) => (t.events > 0 ? (t.cpuSeconds * 1e6) / t.events : Number.NaN);

/** The totals without the per-stream samples (for the JSON report). */
export function withoutSamples(t: SideTotals): Omit<SideTotals, 'samples'> {
  const { samples: _samples, ...rest } = t;
  return rest;
}
