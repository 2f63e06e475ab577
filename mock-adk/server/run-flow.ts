/**
 * One run request (`/run_sse`, `/run_sse_enhanced`, `/run`) from body to replay plan, in the
 * order the real servers check things, so every bad request gets that server's answer:
 *
 *   body → (adk-python: the app) → the session → (adk-js, adk-go: the app) → the message → render → faults
 *
 * adk-python 2.x and adk-go answer their pre-stream failures as their handlers do (run-gates.ts).
 *
 * Selection: the session's `appName` is the scenario id, unless `POST /_mock/arm` armed that
 * sessionId; an armed run is consumed by the first run request for that session that gets past
 * body validation (adk-python 2.x: and resolves an app name).
 */
import { encodeAdkFrame } from '../../core/sse.ts';
import type { Scenario } from '../../schemas/types.ts';
import { dialects, isAdkJs } from '../core/dialects/index.ts';
import { goError } from '../core/dialects/adk-go.ts';
import type { DialectSpec } from '../core/dialects/spec.ts';
import type { ReplayPlan } from '../core/types.ts';
import { applyRunFaults, faultHeader, parseFaultHeader } from './fault-input.ts';
import { mockError } from './mock-errors.ts';
import { renderDialect, type FaultSpec, type MockState } from './mock-state.ts';
import { answer, type Answer, type MockRequest, type MockResult } from './route-types.ts';
import { goSessionMissing, goUnknownApp, python2xAppName, python2xSpecialApp, python2xUnknownApp, starletteServerError } from './run-gates.ts';
import { parseRunRequest, type RunRequest } from './run-request.ts';
import type { StoredSession } from './session-store.ts';

export type RunMode = 'sse' | 'enhanced' | 'json';

export function serveRun(state: MockState, request: MockRequest, mode: RunMode): MockResult {
  const spec = dialects[state.dialect];
  const route = mode === 'json' ? 'json' : 'sse';
  const parsed = parseRunRequest(state.dialect, request, route);
  if (!parsed.ok) return answer(parsed.answer);
  let run = parsed.run;
  if (state.dialect === 'adk-python@2.x') {
    // The handler's first step, before any runner or session: `req.app_name or default_app_name`.
    const resolved = python2xAppName(state, run.appName);
    if (!resolved.ok) return answer(resolved.answer);
    run = { ...run, appName: resolved.appName };
  }
  const extra = parseFaultHeader(request.headers[faultHeader]);
  if (!extra.ok) return mockError('MOCK_BAD_FAULTS', extra.problem);

  const armed = state.armed.get(run.sessionId);
  if (armed) state.armed.delete(run.sessionId);
  const scenario = armed?.scenario ?? state.scenarios.get(run.appName);
  const requestFaults = armed && armed.faults.length > 0 ? [...armed.faults, ...extra.faults] : extra.faults;

  // Python Gen C loads the runner before it looks at the session: "Load errors happen before
  // streaming: a 500 in Gen C" (python-facts §1.3 step 3).
  if (!scenario && state.dialect === 'adk-python') return answer(starletteServerError());
  // 2.x get_runner_async: `__` apps are refused before loading; a load ValueError is a 404.
  if (!armed && state.dialect === 'adk-python@2.x') {
    const refused = python2xSpecialApp(run.appName) ?? (scenario ? undefined : python2xUnknownApp(run.appName, state.scenariosDir));
    if (refused) return answer(refused);
  }

  const session = state.sessions.get(run.appName, run.userId, run.sessionId);
  if (!session) {
    // A scenario with `session.create: false` scripts the server's answer to a missing session:
    // that answer is replayed. Otherwise "`appName`/`userId`/`sessionId` must name an existing
    // session, otherwise 404" (wire-format §2).
    if (scenario?.session.create === false) return renderRun(state, scenario, undefined, run, mode, armed?.dialect, requestFaults);
    if (state.dialect === 'adk-go@2.0.0') return answer(goSessionMissing(run.appName, run.userId, run.sessionId, route));
    return answer(spec.sessionNotFound(run.sessionId, 'run'));
  }

  if (!scenario) {
    // adk-go getRunner, after the session lookup: a 500 before the stream.
    if (state.dialect === 'adk-go@2.0.0') return answer(goUnknownApp(run.appName, state.scenarioIds, route));
    // "unknown appName, session exists: **200** SSE `data: {"error":"Agent 'no_such_app' not
    // found in /…/agents. Available agents: agent_tools, …"}` then EOF" (wire-format §6).
    const message = `Agent '${run.appName}' not found in ${state.scenariosDir}. Available agents: ${state.scenarioIds.join(', ')}`;
    return mode === 'json' ? answer(runFailed(spec, message)) : inStreamError(state, spec, message);
  }

  // adk-go checks no message: NewMessage is a struct the runner gets even when empty, and an empty
  // one reaches the model (runner.go@0a51e153 appendMessageToSession only skips a nil message).
  if (state.dialect !== 'adk-go@2.0.0') {
    if (!run.hasMessage) {
      // adk-js: "If `newMessage` is missing, the response is 200 with SSE headers and a 0-byte body."
      // adk-python: the runner "requires either a new_message or an invocation_id" (python-facts §1.6).
      if (isAdkJs(state.dialect)) return mode === 'json' ? answer(spec.runResult([])) : replayOf('', emptyStream(spec));
      const message = `Running an agent requires either a new_message or an invocation_id to resume a previous invocation. Session: ${run.sessionId}, User: ${run.userId}`;
      return mode === 'json' ? answer(runFailed(spec, message)) : inStreamError(state, spec, message);
    }
    if (run.partCount === 0) {
      // "`newMessage.parts: []` → 200 SSE `data: {"error":"No parts in the newMessage."}`" (§6);
      // Python words it "No parts in the new_message." (python-facts §1.2).
      const message = isAdkJs(state.dialect) ? 'No parts in the newMessage.' : 'No parts in the new_message.';
      return mode === 'json' ? answer(runFailed(spec, message)) : inStreamError(state, spec, message);
    }
  }

  if (run.stateDelta) Object.assign(session.state, run.stateDelta);
  return renderRun(state, scenario, session, run, mode, armed?.dialect, requestFaults);
}

/** `session`: the run's session, looked up by the caller (undefined when it has none). */
function renderRun(state: MockState, scenario: Scenario, session: StoredSession | undefined, run: RunRequest, mode: RunMode, armedDialect: MockState['dialect'] | undefined, requestFaults: readonly FaultSpec[]): MockResult {
  const kind = scenario.upstream.kind;
  if (kind === 'anthropic-turn') {
    return mockError('MOCK_WRONG_ENDPOINT', `scenario '${scenario.id}' is an anthropic-turn scenario; it is served by POST /v1/messages with "model": "${scenario.id}", not by ${mode === 'json' ? '/run' : mode === 'enhanced' ? '/run_sse_enhanced' : '/run_sse'}`);
  }
  if (mode === 'json' && kind === 'bytes') {
    return mockError('MOCK_WRONG_ENDPOINT', `scenario '${scenario.id}' scripts raw SSE bytes, which only a streaming route can carry; POST it to /run_sse`);
  }
  const dialect = renderDialect(scenario, state.dialect, armedDialect);
  let plan: ReplayPlan;
  try {
    plan = state.renderCache.render(scenario, {
      dialect,
      streaming: mode === 'json' ? false : run.streaming,
      appName: run.appName,
      userId: run.userId,
      sessionId: run.sessionId,
      ...(mode === 'enhanced' ? { enhanced: true } : {}),
    });
  } catch (error) {
    return mockError('MOCK_RENDER_FAILED', `scenario '${scenario.id}' cannot be rendered in the ${dialect} dialect: ${(error as Error).message}`, { scenario: scenario.id });
  }
  const faulted = applyRunFaults(plan, scenario, requestFaults);
  if (!faulted.ok) return faulted.result;
  plan = faulted.plan;
  remember(state, session, scenario, plan);
  if (mode !== 'json') return replayOf(scenario.id, plan, run.sessionId);
  return kind === 'http' ? answer(planAsAnswer(plan)) : answer(runAnswer(dialects[dialect], plan));
}

const replayOf = (scenarioId: string, plan: ReplayPlan, sessionId?: string): MockResult => ({ kind: 'replay', plan, scenarioId, ...(sessionId !== undefined ? { sessionId } : {}) });

/**
 * Keep what the server would have stored: the non-partial events ("Partial events are not stored"),
 * and their `actions.stateDelta` applied to the session state, `temp:` keys aside, as appendEvent
 * does (adk-js sessions/base_session_service.js updateSessionState; adk-python the same).
 */
function remember(state: MockState, session: StoredSession | undefined, scenario: Scenario, plan: ReplayPlan): void {
  if (!session || scenario.upstream.kind !== 'run' || plan.status !== 200) return;
  for (const frame of plan.frames) {
    if (frame.kind !== 'event') continue;
    const json = frame.json as { partial?: unknown; actions?: { stateDelta?: unknown } } | undefined;
    if (json?.partial === true) continue;
    session.events.push(frame.data);
    const delta = json?.actions?.stateDelta;
    if (delta === null || typeof delta !== 'object' || Array.isArray(delta)) continue;
    for (const [key, value] of Object.entries(delta)) if (!key.startsWith('temp:')) session.state[key] = value;
  }
  session.lastUpdateTime = state.now();
}

/** The SSE headers and one `data: {"error": ...}` frame, in the dialect's bytes. */
function inStreamError(state: MockState, spec: DialectSpec, message: string): MockResult {
  const data = spec.errorFrameData({ message }, state.now() / 1000);
  const bytes = new TextEncoder().encode(encodeAdkFrame(data));
  let json: unknown;
  try { json = JSON.parse(data); } catch { json = undefined; }
  return replayOf('', { status: 200, headers: spec.sseHeaders(), chunks: [{ bytes, delayMs: 0, frame: 0 }], end: 'eof', frames: [{ data, kind: 'error', json }] });
}

function emptyStream(spec: DialectSpec): ReplayPlan {
  return { status: 200, headers: spec.sseHeaders(), chunks: [], end: 'eof', frames: [] };
}

/**
 * `/run` when the run fails: adk-js `{"error":"Failed to run agent: <e>","events":[…]}` (§1; 1.4 to 1.6 without `events`);
 * Python (Gen C and 2.x: `run_agent` re-raises all but SessionNotFoundError) a bare 500; adk-go
 * RunHandler's statusError "failed to run agent: %w" through NewErrorHandler (runtime.go@0a51e153).
 */
function runFailed(spec: DialectSpec, message: string, events: unknown[] = []): Answer {
  if (spec.name === 'adk-python' || spec.name === 'adk-python@2.x') return starletteServerError();
  if (spec.name === 'adk-go@2.0.0') return goError(500, `failed to run agent: ${message}`);
  // adk-js 1.4 to 1.6 answer the error alone (docs/mock.md, "adk-js before 2.0.0").
  if (spec.name === 'adk-js@1.4-1.6') return spec.json(500, { error: `Failed to run agent: ${message}` });
  return spec.json(500, { error: `Failed to run agent: ${message}`, events });
}

function runAnswer(spec: DialectSpec, plan: ReplayPlan): Answer {
  const events = plan.frames.filter((f) => f.kind === 'event');
  const failure = plan.frames.find((f) => f.kind !== 'event');
  if (failure) {
    const error = (failure.json as { error?: unknown } | undefined)?.error;
    // A thrown non-Error has no message: adk-js words that "a bare string was thrown".
    const message = typeof error === 'string' ? error : 'a bare string was thrown';
    return runFailed(spec, message, events.map((f) => f.json));
  }
  return spec.runResult(events.map((f) => f.data));
}

/** An `http` scenario on `/run`: the same scripted answer, as one body. */
function planAsAnswer(plan: ReplayPlan): Answer {
  const body = Buffer.concat(plan.chunks.map((c) => c.bytes)).toString('utf8');
  return { status: plan.status, headers: plan.headers, body };
}
