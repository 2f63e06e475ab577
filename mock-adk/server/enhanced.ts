/**
 * `POST /run_sse_enhanced` (seed 000 §2.2B): the same run, rendered with `enhanced: true`, so
 * every event carries `_audit_metadata` from the audit bridge and the stream ends with
 * `data: [DONE]`. The selection, session checks and faults are those of `/run_sse`.
 */
import type { MockRoute } from './route-types.ts';
import { serveRun } from './run-flow.ts';

export const enhancedRoutes: readonly MockRoute[] = [
  { method: 'POST', path: '/run_sse_enhanced', handle: (state, request) => serveRun(state, request, 'enhanced') },
];
