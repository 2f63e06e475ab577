/**
 * A POST SSE client written from seed 004's "Frontend Implementation" advice, taken literally:
 * "Use `fetch` + `ReadableStream` (standard EventSource doesn't support POST)" and "Parse SSE
 * stream manually (split by `\n\n`, extract `data:` lines)", then "Route to ADK event handler".
 * The request is seed 004's curl test (Content-Type: application/json, the RunAgentRequest body).
 * Calibration material (docs/calibration.md): its defects are kept on purpose.
 */
export type RunAgentRequest = {
  appName: string;
  userId: string;
  sessionId: string;
  newMessage: { role: string; parts: Array<Record<string, unknown>> };
  streaming?: boolean;
  stateDelta?: Record<string, unknown>;
};

/** Posts the run and hands each `data:` line to `onEvent`; resolves when the stream is done. */
export async function streamRunSse(url: string, body: RunAgentRequest, onEvent: (data: string) => void, signal?: AbortSignal): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || !response.body) throw new Error(`SSE request failed: ${response.status} ${response.statusText}`);

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const events = buffer.split('\n\n');
    buffer = events.pop() ?? '';
    for (const event of events) {
      for (const line of event.split('\n')) {
        if (line.startsWith('data:')) onEvent(line.slice(5).trim());
      }
    }
  }
}
