/**
 * Counters a harness reads to see that the gateway let go of its upstream streams (seed 004:
 * "Connection closes when: ... Client disconnects"), next to the mock's own `/_mock/streams`.
 */
import type { FastifyPluginAsync } from 'fastify';
import { routeConfig } from './access.ts';
import type { UpstreamOutcome } from './upstream.ts';

export type StreamStats = {
  /** Upstream requests still open. */
  open: number;
  opened: number;
  /** Ended by an upstream EOF (a normal end). */
  completed: number;
  /** Torn down because the client left. */
  closedByClient: number;
  timedOut: number;
  /** Non-2xx upstream answers turned into the status frame. */
  upstreamStatus: number;
  /** Refused, reset or broken upstream exchanges. */
  streamErrors: number;
};

export type GatewayStats = {
  streams: StreamStats;
  onOpen: () => void;
  onClose: (outcome: UpstreamOutcome) => void;
};

export function createGatewayStats(): GatewayStats {
  const streams: StreamStats = { open: 0, opened: 0, completed: 0, closedByClient: 0, timedOut: 0, upstreamStatus: 0, streamErrors: 0 };
  const field = { eof: 'completed', aborted: 'closedByClient', timeout: 'timedOut', status: 'upstreamStatus', 'stream-error': 'streamErrors' } as const;
  return {
    streams,
    onOpen() { streams.open += 1; streams.opened += 1; },
    onClose(outcome) { streams.open -= 1; streams[field[outcome.kind]] += 1; },
  };
}

/** `GET /_gateway/stats` → `{streams, legacy}`: counts only, never request data. */
export function statsRoute(read: () => unknown): FastifyPluginAsync {
  return async (app) => {
    app.get('/_gateway/stats', { config: routeConfig({ public: true }) }, async () => read());
  };
}
