/**
 * `POST /run_sse` (the scenario replayed as the dialect's SSE stream) and `POST /run` ("same
 * body (`streaming` ignored)": the JSON array of the events a non-streaming run emits).
 */
import type { MockRoute } from './route-types.ts';
import { serveRun } from './run-flow.ts';

export const runRoutes: readonly MockRoute[] = [
  { method: 'POST', path: '/run_sse', handle: (state, request) => serveRun(state, request, 'sse') },
  { method: 'POST', path: '/run', handle: (state, request) => serveRun(state, request, 'json') },
];
