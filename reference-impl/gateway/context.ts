/**
 * What the gateway's plugins share: the resolved config, the stream counters and the upstream
 * agents (destroyed with the app, so a stopped gateway leaves no sockets behind).
 */
import http from 'node:http';
import https from 'node:https';
import type { GatewayConfig } from './config.ts';
import { createGatewayStats, type GatewayStats } from './stats.ts';

export type GatewayContext = {
  config: GatewayConfig;
  stats: GatewayStats;
  agents: { http: http.Agent; https: https.Agent };
};

export function createGatewayContext(config: GatewayConfig): GatewayContext {
  return {
    config,
    stats: createGatewayStats(),
    // One connection per run, never reused: a run is a long stream, so reuse saves nothing, and a
    // pooled socket the server is closing would turn into a spurious STREAM_ERROR on the next run.
    agents: { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) },
  };
}

export function closeGatewayContext(context: GatewayContext): void {
  context.agents.http.destroy();
  context.agents.https.destroy();
}
