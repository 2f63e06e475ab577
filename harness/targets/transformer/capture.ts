/**
 * One scenario run on the mock ADK server, captured as the data fields a transformer reads: create
 * a session, arm the run in the wanted dialect (`POST /_mock/arm`), POST the scenario's endpoint
 * and read the SSE body with core/sse.ts, noting when each frame arrived. A held-open body is read
 * until the rendered plan's frames have all arrived; a reset body is a cut stream. A mock that
 * answers something the scenario does not script is a harness problem and is thrown.
 */
import { createSseReader } from '../../../core/sse.ts';
import { applyFaults } from '../../../mock-adk/core/faults.ts';
import { render } from '../../../mock-adk/core/render.ts';
import type { Dialect } from '../../../mock-adk/core/types.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { Ending } from '../../checks/transformer/observation.ts';
import { armSession } from '../mock-sse.ts';

export type CapturedFrame = { data: string; arrivedAt: number };

export type Capture = { sessionId: string; dialect: Dialect; frames: CapturedFrame[]; ending: Ending; expectedFrames: number };

let sessions = 0;

export async function captureRun(mockUrl: string, scenario: Scenario, dialect: Dialect, signal: AbortSignal): Promise<Capture> {
  const { userId } = scenario.session;
  // A fresh session per capture: one mock serves many runs (every mutant of a mutation test).
  const sessionId = `${scenario.session.sessionId}-tr${process.pid}-${++sessions}`;
  await armSession(mockUrl, scenario, sessionId, dialect, signal);

  const endpoint = scenario.request.endpoint ?? '/run_sse';
  const streaming = scenario.request.streaming === true;
  const enhanced = endpoint === '/run_sse_enhanced';
  // The plan the mock renders for this request (same context, so the same frames), for the count.
  const plan = applyFaults(render(scenario, { dialect, streaming, appName: scenario.id, userId, sessionId, ...(enhanced ? { enhanced: true } : {}) }), (scenario.faults ?? []) as Parameters<typeof applyFaults>[1]);

  const controller = new AbortController();
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  const t0 = performance.now();
  const frames: CapturedFrame[] = [];
  let ending: Ending = 'eof';
  try {
    const response = await fetch(`${mockUrl}${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ appName: scenario.id, userId, sessionId, newMessage: { role: 'user', parts: [{ text: scenario.request.message }] }, streaming, ...(scenario.request.stateDelta ? { stateDelta: scenario.request.stateDelta } : {}) }),
      signal: controller.signal,
    });
    if (response.status !== 200 || response.body === null) {
      const text = await response.text().catch(() => '');
      throw new Error(`the mock answered scenario ${scenario.id} with HTTP ${response.status} (the transformer runner needs a 200 stream): ${text.slice(0, 300)}`);
    }
    // "A field that spanned several `data:` lines reaches the writer joined with LF; the writer puts
    // it on one line by replacing each LF with a space" (docs/transform-contract.md "Input").
    const reader = createSseReader({ onFrame: (f) => frames.push({ data: f.data.replace(/\r\n|\r|\n/g, ' '), arrivedAt: performance.now() - t0 }) });
    const body = response.body.getReader();
    for (;;) {
      if (plan.end === 'hold-open' && frames.length >= plan.frames.length) { ending = 'hold-open'; break; }
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await body.read();
      } catch (error) {
        if (signal.aborted) throw error;
        ending = 'cut';
        break;
      }
      if (read.done) break;
      reader.feed(read.value);
    }
    if (ending !== 'cut') reader.end();
    if (ending === 'eof' && plan.end === 'reset') ending = 'cut';
  } finally {
    signal.removeEventListener('abort', stop);
    controller.abort();
  }
  return { sessionId, dialect, frames, ending, expectedFrames: plan.frames.length };
}

/** The scripted wait of a scenario's rendering in one dialect: every chunk's delay and the headers' delay, summed. */
export function scriptedWaitMs(scenario: Scenario, dialect: Dialect): number {
  const plan = planOf(scenario, dialect, 'wait');
  return (plan.headersDelayMs ?? 0) + plan.chunks.reduce((n, c) => n + c.delayMs, 0);
}

function planOf(scenario: Scenario, dialect: Dialect, sessionId: string) {
  const enhanced = scenario.request.endpoint === '/run_sse_enhanced';
  return applyFaults(render(scenario, { dialect, streaming: scenario.request.streaming === true, appName: scenario.id, userId: scenario.session.userId, sessionId, ...(enhanced ? { enhanced: true } : {}) }), (scenario.faults ?? []) as Parameters<typeof applyFaults>[1]);
}

/**
 * The same capture without waiting: the mock's rendering of the run read through the same SSE
 * reader, each frame's arrival time the sum of the scripted delays before it. For a scenario whose
 * scripted silence would outlast the scenario bound (framing_idle_silence: 65 s, issue 28 §4): a
 * transformer is fed gaps capped at 100 ms anyway, so waiting the silence out observes nothing
 * more and would only let the harness's own bound error the run.
 */
export function captureFromPlan(scenario: Scenario, dialect: Dialect): Capture {
  const sessionId = `${scenario.session.sessionId}-tr${process.pid}-${++sessions}`;
  const plan = planOf(scenario, dialect, sessionId);
  if (plan.status !== 200) throw new Error(`scenario ${scenario.id} renders HTTP ${plan.status} in ${dialect} (the transformer runner needs a 200 stream)`);
  const frames: CapturedFrame[] = [];
  let t = plan.headersDelayMs ?? 0;
  const reader = createSseReader({ onFrame: (f) => frames.push({ data: f.data.replace(/\r\n|\r|\n/g, ' '), arrivedAt: t }) });
  for (const chunk of plan.chunks) {
    t += chunk.delayMs;
    reader.feed(chunk.bytes);
  }
  // A reset body ends without the reader's end-of-stream (an incomplete event is never dispatched either way).
  if (plan.end !== 'reset') reader.end();
  return { sessionId, dialect, frames, ending: plan.end === 'hold-open' ? 'hold-open' : plan.end === 'reset' ? 'cut' : 'eof', expectedFrames: plan.frames.length };
}
