/**
 * What the pair's tests share: a back tap in front of an ADK server, a gateway (the reference, or
 * a mutant of harness/mutants/gateway/ in process) whose ADK_UPSTREAM_URL is the back tap, and a
 * front tap in front of the gateway, wired as `tap --pair` wires them (cli/commands/tap.ts), all
 * on 127.0.0.1 with kernel-chosen ports.
 */
import { breakNamed } from '../harness/mutants/gateway/breaks.ts';
import { startMutantGateway } from '../harness/mutants/gateway/host.ts';
import { createTapCore, type TapCore } from './core.ts';
import { createTapPair, pairRequirements, type TapPair } from './pair.ts';
import { createReportCollector, type ReportCollector } from './report.ts';
import { startTap } from './server.ts';
import type { TapRun, TapRunSummary } from './types.ts';

export type Ended = { run: TapRun; summary: TapRunSummary };

export type TestPair = {
  /** The front tap's URL: where a client sends its runs. */
  url: string;
  backUrl: string;
  gatewayUrl: string;
  pair: TapPair;
  collector: ReportCollector;
  front: TapCore;
  back: TapCore;
  /** Front runs (kind 'run') as their downstream got them, pair findings included. */
  fronts: Ended[];
  backs: Ended[];
  /** Resolves once `n` front runs were judged with their pair. */
  waitFronts: (n: number) => Promise<void>;
  close: () => Promise<void>;
};

/** The contract environment of a gateway behind the back tap (docs/harness-gateway.md), auth off. */
export function gatewayEnv(upstream: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ADK_UPSTREAM_URL: upstream, ENABLE_ADK_CANONICAL_STREAM: 'true', ALLOW_UNAUTHENTICATED_SSE: 'true', GATEWAY_TIMEOUT_MS: '300000', ...extra };
}

/** The reference gateway (break `none`) or a mutant, in process. */
export function gatewayWithBreak(name: string, extra: Record<string, string> = {}): (backUrl: string) => Promise<{ url: string; close: () => Promise<void> }> {
  return (backUrl) => startMutantGateway(breakNamed(name), gatewayEnv(backUrl, extra), 0);
}

/** The gateway's total timeout from its environment (gatewayEnv's 300000 when not given), for the pair's GW-TIMEOUT-002. */
export const gatewayTimeoutOf = (extra: Record<string, string> = {}): number => Number(extra.GATEWAY_TIMEOUT_MS ?? 300_000);

export async function startTestPair(adkUrl: string, startGateway: (backUrl: string) => Promise<{ url: string; close: () => Promise<void> }>, options: { abortMs?: number; gatewayTimeoutMs?: number } = {}): Promise<TestPair> {
  const collector = createReportCollector({ role: 'gateway', upstream: 'a gateway between two taps', judgeable: pairRequirements });
  const fronts: Ended[] = [];
  const backs: Ended[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const back = createTapCore({ role: 'adk', runNamePrefix: 'back-run', observers: [collector, { onRunEnd(run, summary) { if (run.kind === 'run') backs.push({ run, summary }); } }] });
  const backTap = await startTap({ core: back, upstream: adkUrl });
  const gateway = await startGateway(backTap.url);
  const pair = createTapPair({
    gateway: gateway.url,
    ...(options.abortMs !== undefined ? { abortMs: options.abortMs } : {}),
    ...(options.gatewayTimeoutMs !== undefined ? { gatewayTimeoutMs: options.gatewayTimeoutMs } : {}),
    downstream: [collector, {
      onRunEnd(run, summary) {
        if (run.kind !== 'run') return;
        fronts.push({ run, summary });
        for (const w of waiters.splice(0)) { if (fronts.length >= w.n) w.resolve(); else waiters.push(w); }
      },
    }],
  });
  back.addObserver(pair.back);
  const front = createTapCore({ role: 'gateway', observers: [pair.front] });
  const frontTap = await startTap({ core: front, upstream: gateway.url });
  return {
    url: frontTap.url, backUrl: backTap.url, gatewayUrl: gateway.url, pair, collector, front, back, fronts, backs,
    waitFronts: (n) => (fronts.length >= n ? Promise.resolve() : new Promise((resolve) => { waiters.push({ n, resolve }); })),
    async close() {
      await front.stop();
      await back.stop();
      pair.close();
      await frontTap.close();
      await gateway.close();
      await backTap.close();
    },
  };
}
