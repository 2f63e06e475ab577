/**
 * The POST SSE client of seed 004's "Frontend Implementation" ("Use `fetch` + `ReadableStream`"),
 * parsed with eventsource-parser instead of by hand, written from that library's README usage with
 * its defaults: `createParser({onEvent})`, the body decoded with `TextDecoderStream`, every chunk
 * fed, `parser.reset()` once the stream is done. The request is seed 004's curl test.
 * Calibration material (docs/calibration.md): its defects are kept on purpose.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type RunAgentRequest = {
  appName: string;
  userId: string;
  sessionId: string;
  newMessage: { role: string; parts: Array<Record<string, unknown>> };
  streaming?: boolean;
  stateDelta?: Record<string, unknown>;
};

/** Posts the run and hands each parsed event to `onEvent`; resolves when the stream is done. */
export async function streamRunSse(url: string, body: RunAgentRequest, onEvent: (event: EventSourceMessage) => void, signal?: AbortSignal): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || !response.body) throw new Error(`SSE request failed: ${response.status} ${response.statusText}`);

  const parser = createParser({ onEvent });
  for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
    parser.feed(chunk);
  }
  parser.reset();
}
