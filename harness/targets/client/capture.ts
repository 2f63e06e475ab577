/**
 * The bytes a client under test is given or will receive for one scenario. Command contract: the
 * harness runs the scenario on the mock itself and captures the body as it arrived (chunks, gaps,
 * and how the transport ended: EOF, reset, or held open). Module contract: the client makes the
 * request itself, so the harness renders the same plan the mock serves for that session
 * (mock-adk/core render + faults, deterministic per session) to know the bytes it got.
 */
import { applyFaults } from '../../../mock-adk/core/faults.ts';
import { render } from '../../../mock-adk/core/render.ts';
import type { Dialect } from '../../../mock-adk/core/types.ts';
import type { Scenario } from '../../../schemas/types.ts';
import type { TransportEnd } from '../../checks/client/expected.ts';
import { armSession } from '../mock-sse.ts';

export type ByteChunk = { bytes: Uint8Array; delayMs: number };
/**
 * `status` and `contentType`: the answer's, handed to a command client with the body
 * (ADK_CONFORMANCE_HTTP_STATUS, ADK_CONFORMANCE_CONTENT_TYPE). A non-200 answer's body is one chunk.
 */
export type ByteCapture = { sessionId: string; chunks: ByteChunk[]; transport: TransportEnd; status: number; contentType: string };

let sessions = 0;

/** A fresh session armed with the scenario's own dialect (one mock serves every run and every mutant). */
export async function openSession(mockUrl: string, scenario: Scenario, signal: AbortSignal): Promise<{ userId: string; sessionId: string }> {
  const { userId } = scenario.session;
  const sessionId = `${scenario.session.sessionId}-cl${process.pid}-${++sessions}`;
  await armSession(mockUrl, scenario, sessionId, scenario.dialect, signal);
  return { userId, sessionId };
}

/** The RunAgentRequest of seed 004 for this scenario and session, camelCase, role user. */
export function scenarioRequest(scenario: Scenario, userId: string, sessionId: string): Record<string, unknown> {
  return {
    appName: scenario.id, userId, sessionId,
    newMessage: { role: 'user', parts: [{ text: scenario.request.message }] },
    streaming: scenario.request.streaming === true,
    ...(scenario.request.stateDelta ? { stateDelta: scenario.request.stateDelta } : {}),
  };
}

/** The most bytes a client is handed at once of a scenario tagged `large-event` (joinedWrites). */
export const largeEventPieceBytes = 32 * 1024;

/** Whether a scenario's body reaches the client in joined pieces (joinedWrites): tagged `large-event`. */
export const isLargeEvent = (scenario: Scenario): boolean => (scenario.tags ?? []).includes('large-event');

/**
 * A large-event scenario's writes joined into pieces of up to 32 KiB where no pause parts them:
 * such a scenario judges that the event arrives whole (CLI-LARGE-001), and in the mock's own 1 KB
 * writes a reader whose cost grows with the line times its pieces took 4 to 22 s by the machine,
 * so the verdict was the machine's. Its pace, in 1 KiB pieces, is the large-event probe's
 * (CLI-LARGE-002), which times the same bytes as small events and as one line against each other.
 */
export function joinedWrites<T extends { bytes: Uint8Array; delayMs: number }>(writes: T[]): Array<{ bytes: Uint8Array; delayMs: number }> {
  const out: Array<{ bytes: Uint8Array; delayMs: number }> = [];
  let parts: Uint8Array[] = [];
  let size = 0;
  let delayMs = 0;
  const close = () => { if (parts.length > 0) out.push({ bytes: parts.length === 1 ? parts[0] as Uint8Array : Buffer.concat(parts), delayMs }); parts = []; size = 0; };
  for (const w of writes) {
    if (w.bytes.byteLength === 0) { close(); out.push({ bytes: w.bytes, delayMs: w.delayMs }); continue; }
    if (parts.length > 0 && (w.delayMs > 0 || size + w.bytes.byteLength > largeEventPieceBytes)) close();
    if (parts.length === 0) delayMs = w.delayMs;
    parts.push(w.bytes);
    size += w.bytes.byteLength;
  }
  close();
  return out;
}

function plan(scenario: Scenario, userId: string, sessionId: string, streaming = scenario.request.streaming === true) {
  const p = applyFaults(render(scenario, { dialect: scenario.dialect as Dialect, streaming, appName: scenario.id, userId, sessionId }), (scenario.faults ?? []) as Parameters<typeof applyFaults>[1]);
  return isLargeEvent(scenario) ? { ...p, chunks: joinedWrites(p.chunks) } : p;
}

/**
 * The bytes the mock serves this session for a request with `streaming` (default: the
 * scenario's), as planned: under the module contract, the length of a held-open body (the
 * expectation itself is computed from the bytes served, harness/targets/client/proxy.ts).
 */
export function plannedBytes(scenario: Scenario, userId: string, sessionId: string, streaming?: boolean): { chunks: Uint8Array[]; transport: TransportEnd } {
  const p = plan(scenario, userId, sessionId, streaming);
  return { chunks: p.chunks.map((c) => c.bytes), transport: p.end === 'reset' ? 'reset' : p.end === 'hold-open' ? 'hold-open' : 'eof' };
}

/**
 * Run the scenario on the mock and keep the body as it arrived. Gaps of 10 ms or more are kept
 * (capped at `maxGapMs`); shorter ones are scheduling noise. A held-open body is read until the
 * plan's bytes have all arrived, and its gaps are capped at `heldOpenMaxGapMs` instead: there the
 * final-answer rule decides on a silence longer than the grace window (a sub-agent's answer, a
 * pause, then the root agent's), which the 100 ms cap would hide. A non-200 answer (an `http`
 * scenario) is kept whole, with its status and Content-Type.
 */
export async function captureBytes(mockUrl: string, scenario: Scenario, signal: AbortSignal, maxGapMs = 100, heldOpenMaxGapMs = maxGapMs): Promise<ByteCapture> {
  const { userId, sessionId } = await openSession(mockUrl, scenario, signal);
  const planned = plan(scenario, userId, sessionId);
  const total = planned.chunks.reduce((n, c) => n + c.bytes.byteLength, 0);
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  const chunks: ByteChunk[] = [];
  let transport: TransportEnd = 'eof';
  let status = 0;
  let contentType = '';
  const capMs = planned.end === 'hold-open' ? Math.max(maxGapMs, heldOpenMaxGapMs) : maxGapMs;
  try {
    const response = await fetch(`${mockUrl}/run_sse`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(scenarioRequest(scenario, userId, sessionId)), signal: controller.signal,
    });
    status = response.status;
    contentType = response.headers.get('content-type') ?? '';
    if (status !== 200 || response.body === null) {
      const bytes = new Uint8Array(await response.arrayBuffer());
      // Only a scenario that scripts a non-200 answer expects one: any other is the mock's refusal, a harness error.
      if (scenario.upstream.kind !== 'http') throw new Error(`the mock answered scenario ${scenario.id} with HTTP ${status} (the client runner needs a 200 stream): ${Buffer.from(bytes).toString('utf8').slice(0, 300)}`);
      return { sessionId, chunks: [{ bytes, delayMs: 0 }], transport: 'eof', status, contentType };
    }
    const body = response.body.getReader();
    let last = performance.now();
    let received = 0;
    for (;;) {
      if (planned.end === 'hold-open' && received >= total) { transport = 'hold-open'; break; }
      let read: ReadableStreamReadResult<Uint8Array>;
      try { read = await body.read(); } catch (error) {
        if (signal.aborted) throw error;
        transport = 'reset';
        break;
      }
      if (read.done) break;
      const now = performance.now();
      const gap = now - last;
      last = now;
      received += read.value.byteLength;
      chunks.push({ bytes: read.value, delayMs: chunks.length === 0 || gap < 10 ? 0 : Math.min(capMs, Math.round(gap)) });
    }
    if (transport === 'eof' && planned.end === 'reset') transport = 'reset';
  } finally {
    signal.removeEventListener('abort', stop);
    controller.abort();
  }
  return { sessionId, chunks: asWritten(chunks, planned.chunks, capMs) ?? chunks, transport, status, contentType };
}

/**
 * The body in the writes the mock made, when it served exactly its plan: the harness's socket reads
 * coalesce writes as the machine's load has it, so a client was given 3,121 pieces of a 3 MB event
 * on a quiet machine and a handful under load, and a reader whose cost grows with a line's length
 * times its pieces (19 s of CPU in 1 KB pieces, 0.4 s in 64 KiB ones) passed or hung by the load
 * (a large-event scenario's writes are now joined to 32 KiB: joinedWrites).
 * The scripted splits (every byte, CR | LF) reach the client as scripted too. A gap keeps the
 * capture's rule: under 10 ms none, else at most `capMs`. Other bytes (another mock): as they came.
 */
export function asWritten(arrived: ByteChunk[], writes: Array<{ bytes: Uint8Array; delayMs: number }>, capMs: number): ByteChunk[] | undefined {
  const got = Buffer.concat(arrived.map((c) => c.bytes));
  const planned = Buffer.concat(writes.map((w) => w.bytes));
  if (!got.equals(planned)) return undefined;
  const chunks: ByteChunk[] = [];
  let waited = 0;
  for (const w of writes) {
    waited += w.delayMs;
    if (w.bytes.byteLength === 0) continue; // a pure wait: it delays the next write
    chunks.push({ bytes: w.bytes, delayMs: chunks.length === 0 || waited < 10 ? 0 : Math.min(capMs, Math.round(waited)) });
    waited = 0;
  }
  return chunks;
}
