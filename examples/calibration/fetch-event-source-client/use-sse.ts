/**
 * The POST SSE client of seed 004's "Frontend Implementation" ("Use `fetch` + `ReadableStream`
 * (standard EventSource doesn't support POST)") on @microsoft/fetch-event-source 2.0.1, the usual
 * library for it, with its defaults: no `onopen`, `onerror` or `onclose`, `openWhenHidden` unset.
 * The request is seed 004's curl test. Calibration material (docs/calibration.md): its defects
 * are kept on purpose.
 */
import { fetchEventSource, type EventSourceMessage } from '@microsoft/fetch-event-source';

export type RunAgentRequest = {
  appName: string;
  userId: string;
  sessionId: string;
  newMessage: { role: string; parts: Array<Record<string, unknown>> };
  streaming?: boolean;
  stateDelta?: Record<string, unknown>;
};

/** Posts the run and hands each message to `onEvent`; resolves when the stream is done. */
export async function streamRunSse(url: string, body: RunAgentRequest, onEvent: (event: EventSourceMessage) => void, signal?: AbortSignal): Promise<void> {
  await fetchEventSource(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
    onmessage: onEvent,
  });
}
