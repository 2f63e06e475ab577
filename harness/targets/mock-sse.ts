/**
 * The harness's own client for the mock ADK server: create a session and run a scenario over
 * HTTP, or POST to any stream route, and read the answer with core/sse.ts. A mock that answers
 * something else than the scenario scripts is a harness problem, so it is thrown (the engine
 * reports the scenario as errored), never turned into a finding about the implementation.
 */
import { createSseReader, type SseFrame, type SseIssue } from '../../core/sse.ts';
import type { Scenario } from '../../schemas/types.ts';
import { callLocalMock } from '../../mock-adk/server/local-calls.ts';

export type SseAnswer = { status: number; frames: SseFrame[]; issues: SseIssue[] };

/** undici's "fetch failed" hides why: the cause (ECONNRESET, a socket closed mid-body...) is what to fix. */
export function why(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  return [e.message, e.cause?.code, e.cause?.message].filter(Boolean).join(': ');
}

/**
 * fetch to the harness's own mock, tried once more when the connection was reset before any answer:
 * a pooled keep-alive socket the mock closed (its 5 s keep-alive, Express's) while a starved event
 * loop was about to reuse it. The request never reached a handler, so sending it again is safe.
 */
export async function fetchMock(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (init.signal?.aborted || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET' && code !== 'EPIPE')) throw new Error(`${init.method ?? 'GET'} ${url}: ${why(error)}`);
    return fetch(url, init).catch((again: unknown) => { throw new Error(`${init.method ?? 'GET'} ${url}: ${why(again)} (tried twice)`); });
  }
}

export async function postSse(url: string, body: unknown, signal?: AbortSignal): Promise<SseAnswer> {
  const response = await fetchMock(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const frames: SseFrame[] = [];
  const issues: SseIssue[] = [];
  if (!response.ok || response.body === null) {
    const text = await response.text().catch(() => '');
    throw new Error(`the mock answered POST ${url} with ${response.status}: ${text.slice(0, 300)}`);
  }
  const reader = createSseReader({ onFrame: (f) => frames.push(f), onIssue: (i) => issues.push(i) });
  const body$ = response.body.getReader();
  for (let read = await body$.read(); !read.done; read = await body$.read()) reader.feed(read.value);
  reader.end();
  return { status: response.status, frames, issues };
}

export async function postJson(url: string, body: unknown, signal?: AbortSignal): Promise<{ status: number; json: unknown; text: string }> {
  const { status, text } = await callMock(url, 'POST', body, signal);
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status, json, text };
}

/**
 * One call of the harness to the mock: answered in process when the mock listens in this process
 * and the route is a session or control route (mock-adk/server/local-calls.ts), else over HTTP.
 * `body`: sent as JSON.
 */
export async function callMock(url: string, method: string, body?: unknown, signal?: AbortSignal): Promise<{ status: number; text: string }> {
  signal?.throwIfAborted();
  const json = body !== undefined ? JSON.stringify(body) : undefined;
  const local = callLocalMock(url, method, json);
  if (local) return local;
  const response = await fetchMock(url, { method, ...(json !== undefined ? { headers: { 'content-type': 'application/json' }, body: json } : {}), ...(signal ? { signal } : {}) });
  return { status: response.status, text: await response.text() };
}

let sessionCounter = 0;

/**
 * A fresh session for one run of the scenario: the same mock serves many runs (every mutant of a
 * mutation test), and the app name, not the session id, selects the scenario.
 */
export async function createScenarioSession(mockUrl: string, scenario: Scenario, tag: string, signal?: AbortSignal): Promise<{ userId: string; sessionId: string }> {
  const userId = scenario.session.userId;
  const sessionId = `${scenario.session.sessionId}-${tag}-${process.pid}-${++sessionCounter}`;
  const url = `${mockUrl}/apps/${encodeURIComponent(scenario.id)}/users/${encodeURIComponent(userId)}/sessions/${encodeURIComponent(sessionId)}`;
  const created = await postJson(url, {}, signal);
  if (created.status !== 200) throw new Error(`the mock did not create session ${sessionId} for scenario ${scenario.id}: ${created.status} ${created.text.slice(0, 300)}`);
  return { userId, sessionId };
}

/**
 * Create `sessionId` on the mock for a run of `scenario` (with the scenario's initial state) and arm
 * it to replay the scenario in `dialect`: a fresh session per run, as one mock serves many runs.
 */
export async function armSession(mockUrl: string, scenario: Scenario, sessionId: string, dialect: string, signal: AbortSignal): Promise<void> {
  const created = await callMock(`${mockUrl}/apps/${encodeURIComponent(scenario.id)}/users/${encodeURIComponent(scenario.session.userId)}/sessions/${encodeURIComponent(sessionId)}`, 'POST', scenario.session.state ? { state: scenario.session.state } : {}, signal);
  if (created.status !== 200) throw new Error(`the mock did not create session ${sessionId} for scenario ${scenario.id}: HTTP ${created.status} ${created.text.slice(0, 300)}`);
  const armed = await callMock(`${mockUrl}/_mock/arm`, 'POST', { sessionId, scenario: scenario.id, dialect }, signal);
  if (armed.status !== 200) throw new Error(`the mock refused to arm scenario ${scenario.id} in ${dialect}: HTTP ${armed.status} ${armed.text.slice(0, 300)}`);
}

/**
 * Run the scenario on one of the mock's ADK run routes and return the frames it wrote. The
 * scenario's own dialect is armed, so the harness can render the same plan locally.
 */
export async function runScenarioOnMock(mockUrl: string, scenario: Scenario, route: '/run_sse' | '/run_sse_enhanced', tag: string, signal?: AbortSignal): Promise<SseAnswer & { sessionId: string; userId: string; streaming: boolean }> {
  const { userId, sessionId } = await createScenarioSession(mockUrl, scenario, tag, signal);
  const armed = await postJson(`${mockUrl}/_mock/arm`, { sessionId, scenario: scenario.id, dialect: scenario.dialect }, signal);
  if (armed.status !== 200) throw new Error(`the mock did not arm scenario ${scenario.id} for session ${sessionId}: ${armed.status} ${armed.text.slice(0, 300)}`);
  const streaming = scenario.request.streaming === true;
  const answer = await postSse(`${mockUrl}${route}`, {
    appName: scenario.id,
    userId,
    sessionId,
    newMessage: { role: 'user', parts: [{ text: scenario.request.message }] },
    streaming,
  }, signal);
  return { ...answer, sessionId, userId, streaming };
}
