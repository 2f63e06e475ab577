/**
 * One recording, end to end and platform-free: create the session on the upstream, run the
 * message, capture the answer, build the scenario. The `record` command and tests call this; the
 * mock's recording proxy captures its own exchanges and calls `buildScenario` directly.
 */
import { captureRun, createSession, type CaptureBounds, type HttpTarget } from './http-capture.ts';
import { safeOrigin, userRedactions } from './redact.ts';
import { buildScenario, type BuildResult } from './scenario.ts';
import type { CapturedExchange } from './types.ts';

export type RecordOptions = HttpTarget & CaptureBounds & {
  app: string;
  user: string;
  /** Omitted: the server chooses the session id. */
  session?: string;
  message: string;
  streaming: boolean;
  endpoint?: '/run_sse' | '/run_sse_enhanced';
  /** The scenario id (the --out file's name). */
  id: string;
  normalizeIds: boolean;
  /** `--redact` regular expressions, added to the default list. */
  redact: readonly string[];
};

export type Recording = BuildResult & { exchange: CapturedExchange };

export async function recordRun(options: RecordOptions): Promise<Recording> {
  // Bad patterns fail before anything is sent to the upstream.
  const redactions = userRedactions(options.redact);
  const sessionId = await createSession(options, options.app, options.user, options.session);
  const endpoint = options.endpoint ?? '/run_sse';
  const body = {
    appName: options.app,
    userId: options.user,
    sessionId,
    newMessage: { role: 'user', parts: [{ text: options.message }] },
    streaming: options.streaming,
  };
  const response = await captureRun(options, endpoint, body, options);
  const exchange: CapturedExchange = {
    request: { endpoint, appName: options.app, userId: options.user, sessionId, message: options.message, streaming: options.streaming },
    response,
    upstream: safeOrigin(options.base),
    recordedAt: new Date().toISOString(),
  };
  return { ...buildScenario(exchange, { id: options.id, normalizeIds: options.normalizeIds, redactions }), exchange };
}
