/**
 * adk-js 1.4.0 to 1.6.0 (`adk api_server` of @google/adk-devtools, Express 4). Measured on
 * 2026-11-25 against the real packages (the kit's fake-Gemini method of `real-adk/`, 67 raw
 * captures per version, ids and times masked): the three versions send the same bytes as each
 * other, and differ from 2.0.0 (adk-js.ts, whose bytes this reuses) in three places only
 * (docs/mock.md, "adk-js before 2.0.0"):
 *
 * 1. With streaming, a turn that ends in function calls gets no content-less usage report after
 *    the tool result: 1.x's `llm_agent.js` drops every response without content (2.0.0 keeps a
 *    usage-only one, `isUsageOnlyReport`). So a coordinator is not run again after a transfer.
 * 2. `GET /version` is not routed: Express's 404 page.
 * 3. `POST /run`'s 500 body is `{"error": …}` with no `events` key (the 500 itself is in run-flow.ts).
 *
 * 1.0.0 differs in more places (CORS on `/run_sse`, no `/health`, …) and has no dialect.
 */
import { adkJs, finalhandler } from './adk-js.ts';
import type { DialectSpec } from './spec.ts';

export const adkJs1x: DialectSpec = {
  ...adkJs,
  name: 'adk-js@1.4-1.6',
  // (1): the events of the turn, without the trailing report 2.0.0 writes after the tool round.
  modelTurn: (turn, env) => ({ events: adkJs.modelTurn(turn, env).events }),
  // (1): without that report the transferring agent's step ends on its sub-agent's answer.
  reinvokesAfterTransfer: () => false,
  // (2)
  version: () => finalhandler(404, 'Cannot GET /version'),
};
