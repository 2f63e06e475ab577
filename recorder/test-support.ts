/**
 * Test helpers: a rendered mock plan seen as a capture, so the recorder can be checked against
 * every corpus scenario without sockets (the socket path has its own tests).
 */
import type { ReplayPlan } from '../mock-adk/core/types.ts';
import type { Scenario } from '../schemas/types.ts';
import { resolveHeaders } from '../mock-adk/core/render.ts';
import type { CapturedExchange, CapturedResponse } from './types.ts';

export function planAsCapture(plan: ReplayPlan, now = new Date('2026-11-22T03:35:00Z')): CapturedResponse {
  let at = 0;
  const chunks = plan.chunks.filter((c) => c.bytes.length > 0 || c.delayMs > 0).map((c) => {
    at += c.delayMs;
    return { bytes: c.bytes, atMs: at };
  }).filter((c) => c.bytes.length > 0);
  return { status: plan.status, headers: resolveHeaders(plan.headers, now), chunks, end: plan.end, endAtMs: at };
}

export function exchangeFor(scenario: Scenario, response: CapturedResponse, sessionId = scenario.session.sessionId): CapturedExchange {
  return {
    request: {
      endpoint: scenario.request.endpoint === '/run_sse_enhanced' ? '/run_sse_enhanced' : '/run_sse',
      appName: scenario.id,
      userId: scenario.session.userId,
      sessionId,
      message: scenario.request.message,
      streaming: scenario.request.streaming === true,
    },
    response,
    upstream: 'http://127.0.0.1:8080',
    recordedAt: '2026-11-22T03:35:00.000Z',
  };
}
