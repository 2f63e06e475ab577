/**
 * Gateway passthrough against going to the mock directly, same run, same client.
 * - throughput: events/s of a 100-event stream through the gateway vs straight from the mock;
 * - added latency: a paced stream (10 events 10 ms apart) in pairs: a direct stream and one through
 *   the gateway start in the same tick, and each event's arrival through the gateway minus its
 *   arrival direct is one sample; both streams meet the same moment of this shared machine.
 * A bare node:http proxy (bench/children/plain-proxy.ts) measured the same way is the floor any
 * passthrough hop has on this machine, and is shown next to the gateway.
 * Goals (issue 7): at least 0.8 of direct throughput, under 2 ms added at p99.
 */
import { abRounds, cpuPerEvent, perSecond, withoutSamples as strip, type Side } from './lib/ab-rounds.ts';
import { runBody, workloads, writeScenarioFolder } from './lib/bench-scenarios.ts';
import { atLeast, below, figure, type BenchResult } from './lib/figures.ts';
import { closedLoop, pairedLoop, type PairedResult, type Target } from './lib/http-load.ts';
import type { RunningChild } from './lib/children.ts';
import { startGatewayChild, startMockChild, startPlainProxyChild } from './lib/servers.ts';
import { quantile } from './lib/stats.ts';

export type GatewayBenchOptions = { concurrency: number; rounds: number; durationMs: number; latencyConcurrency: number; latencyDurationMs: number };

export const gatewayBenchDefaults: GatewayBenchOptions = { concurrency: 16, rounds: 3, durationMs: 1500, latencyConcurrency: 4, latencyDurationMs: 3000 };

export async function benchGateway(options: GatewayBenchOptions = gatewayBenchDefaults): Promise<BenchResult> {
  const folder = writeScenarioFolder([workloads.long, workloads.paced], []);
  const mock = await startMockChild(folder);
  const started: RunningChild[] = [mock];
  try {
    const gateway = await startGatewayChild(mock.url);
    started.push(gateway);
    const proxy = await startPlainProxyChild(mock.url);
    started.push(proxy);
    const sides = (app: string) => {
      const body = runBody(app);
      return [
        { name: 'through the gateway', target: { url: gateway.url, path: '/run_sse', body, headers: { authorization: `Bearer ${gateway.token}` } }, pids: [gateway.pid, mock.pid] },
        { name: 'direct to the mock', target: { url: mock.url, path: '/run_sse', body }, pids: [mock.pid] },
        { name: 'through a plain node:http proxy', target: { url: proxy.url, path: '/run_sse', body }, pids: [proxy.pid, mock.pid] },
      ] as const satisfies readonly Side[];
    };
    const long = sides(workloads.long.id);
    for (const side of long) await closedLoop({ target: side.target, concurrency: options.concurrency, durationMs: Math.min(500, options.durationMs) });
    const [through, direct, proxied] = await abRounds(long, options);
    const [viaGateway, directly, viaProxy] = sides(workloads.paced.id).map((side) => side.target) as [Target, Target, Target];
    const gatewayPairs = await pairedLoop(directly, viaGateway, options.latencyConcurrency, options.latencyDurationMs);
    const proxyPairs = await pairedLoop(directly, viaProxy, options.latencyConcurrency, options.latencyDurationMs);
    const latency = summarizePairs(gatewayPairs);
    const proxyLatency = summarizePairs(proxyPairs);

    const rate = perSecond(through.events, through.elapsedMs);
    const directRate = perSecond(direct.events, direct.elapsedMs);
    const proxyRate = perSecond(proxied.events, proxied.elapsedMs);
    const share = directRate > 0 ? rate / directRate : null;
    const failed = through.errors + through.badStatus;
    return {
      id: 'gateway',
      title: 'gateway passthrough vs direct to the mock (and vs a bare node:http proxy)',
      figures: [
        figure({ name: `gateway events/s (100-event stream, ${options.concurrency} streams)${failed ? `, ${failed} failed streams` : ''}`, unit: 'events/s', value: rate, baseline: { name: 'direct to the mock', value: directRate }, goal: atLeast(share, 0.8, '>= 0.8 of direct') }),
        figure({ name: 'gateway events/s against the floor of any proxy', unit: 'events/s', value: rate, baseline: { name: 'plain node:http proxy', value: proxyRate } }),
        figure({ name: 'plain node:http proxy events/s (what one extra hop allows)', unit: 'events/s', value: proxyRate, baseline: { name: 'direct to the mock', value: directRate } }),
        figure({ name: 'gateway added latency p50 (paced stream)', unit: 'ms', value: latency.addedP50, baseline: { name: 'plain proxy added', value: proxyLatency.addedP50 } }),
        figure({ name: 'gateway added latency p99 (paced stream)', unit: 'ms', value: latency.addedP99, baseline: { name: 'plain proxy added', value: proxyLatency.addedP99 }, goal: below(latency.addedP99, 2, '< 2 ms') }),
        figure({ name: 'gateway added latency, first event of a stream, p99', unit: 'ms', value: latency.firstEventP99, baseline: { name: 'plain proxy', value: proxyLatency.firstEventP99 } }),
        figure({ name: 'gateway process CPU per event (100-event stream)', unit: 'µs', value: cpuPerEvent(through) - cpuPerEvent(direct), baseline: { name: 'plain proxy process', value: cpuPerEvent(proxied) - cpuPerEvent(direct) } }),
      ],
      notes: [
        `throughput: ${options.concurrency} concurrent keep-alive client streams, ${options.rounds} rotating rounds of ${options.durationMs} ms per path; the gateway opens one upstream connection per run (docs/gateway.md), JWT (HS256) on every request; the plain proxy does the same hop with no auth, checks or frames`,
        `latency: ${workloads.paced.id} (${workloads.paced.chunks + 1} events ${workloads.paced.chunkDelayMs} ms apart) in pairs, ${options.latencyConcurrency} pairs at a time: a direct stream and one through the path start in the same tick; added = arrival of event k through the path − arrival of event k direct`,
        'client, mock and gateway share this machine\'s cores: with every process busy, a hop that must receive and re-send each byte cannot keep 0.8 of direct throughput (the plain proxy row is that floor)',
      ],
      details: { throughput: { through: strip(through), direct: strip(direct), proxy: strip(proxied) }, latency, proxyLatency },
    };
  } finally {
    await Promise.all(started.map((c) => c.stop()));
    folder.remove();
  }
}

export type PairLatency = { pairs: number; incomplete: number; events: number; addedP50: number; addedP99: number; firstEventP50: number; firstEventP99: number; firstError?: string };

export function summarizePairs(result: PairedResult): PairLatency {
  if (result.differencesMs.length === 0) throw new Error(`gateway latency: no complete pair of paced streams (${result.incomplete} of ${result.pairs} incomplete: ${result.firstError ?? 'no pair ran'})`);
  return {
    pairs: result.pairs,
    incomplete: result.incomplete,
    events: result.differencesMs.length,
    addedP50: quantile(result.differencesMs, 0.5),
    addedP99: quantile(result.differencesMs, 0.99),
    firstEventP50: quantile(result.firstEventDifferencesMs, 0.5),
    firstEventP99: quantile(result.firstEventDifferencesMs, 0.99),
    ...(result.firstError !== undefined ? { firstError: result.firstError } : {}),
  };
}
