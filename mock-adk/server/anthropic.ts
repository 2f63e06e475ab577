/**
 * `POST /v1/messages`: seed 003's index-reuse family in the Anthropic Messages streaming format,
 * one scripted message per LLM call. The request's `model` names the anthropic-turn scenario and
 * the call number is "the count of assistant messages in the request's `messages`" (design.md),
 * so a turn runner that appends each answer before calling again walks the script in order.
 * A `bytes` or `http` scenario named by `model` is replayed as scripted (a misbehaving upstream).
 * `POST /_mock/anthropic/{scenarioId}/tools/{toolUseId}` is the tool backend between calls.
 */
import type { Scenario } from '../../schemas/types.ts';
import { anthropicToolResult, renderAnthropicCall } from '../core/anthropic.ts';
import { render } from '../core/render.ts';
import type { ReplayPlan } from '../core/types.ts';
import { applyRunFaults, faultHeader, parseFaultHeader } from './fault-input.ts';
import { jsonAnswer, mockError } from './mock-errors.ts';
import type { FaultSpec, MockState } from './mock-state.ts';
import { isPlainObject } from './request-body.ts';
import type { MockRequest, MockResult, MockRoute } from './route-types.ts';

function scenarioFor(state: MockState, id: string): { ok: true; scenario: Scenario } | { ok: false; result: MockResult } {
  const scenario = state.scenarios.get(id);
  if (!scenario) return { ok: false, result: mockError('MOCK_UNKNOWN_SCENARIO', `no scenario has the id '${id}'`) };
  if (scenario.upstream.kind !== 'anthropic-turn') return { ok: false, result: mockError('MOCK_NOT_ANTHROPIC', `scenario '${id}' is a '${scenario.upstream.kind}' scenario, not anthropic-turn`) };
  return { ok: true, scenario };
}

function messages(state: MockState, request: MockRequest): MockResult {
  let body: unknown;
  try {
    body = JSON.parse(request.body) as unknown;
  } catch (error) {
    return mockError('MOCK_ANTHROPIC_BAD_REQUEST', `the body is not JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(body)) return mockError('MOCK_ANTHROPIC_BAD_REQUEST', 'the body must be a JSON object');
  const model = body['model'];
  if (typeof model !== 'string') return mockError('MOCK_ANTHROPIC_BAD_REQUEST', '`model` must be a string naming an anthropic-turn scenario');
  const history = body['messages'];
  if (!Array.isArray(history)) return mockError('MOCK_ANTHROPIC_BAD_REQUEST', '`messages` must be an array');
  const extra = parseFaultHeader(request.headers[faultHeader]);
  if (!extra.ok) return mockError('MOCK_BAD_FAULTS', extra.problem);
  const scripted = state.scenarios.get(model);
  // A byte script (or a scripted HTTP answer) may stand for a misbehaving Messages upstream: it is
  // replayed as it is, whatever the history.
  if (scripted && (scripted.upstream.kind === 'bytes' || scripted.upstream.kind === 'http')) return replayScript(scripted, extra.faults, body['stream'] === true);
  const found = scenarioFor(state, model);
  if (!found.ok) return found.result;
  const { scenario } = found;

  const callIndex = history.filter((m) => isPlainObject(m) && m['role'] === 'assistant').length;
  const calls = scenario.upstream.kind === 'anthropic-turn' ? scenario.upstream.messages.length : 0;
  if (callIndex >= calls) {
    return mockError('MOCK_ANTHROPIC_NO_MORE_CALLS', `scenario '${model}' scripts ${calls} LLM call(s), but the request holds ${callIndex} assistant message(s), which asks for call ${callIndex + 1}`);
  }
  let plan: ReplayPlan;
  try {
    plan = renderAnthropicCall(scenario, callIndex);
  } catch (error) {
    return mockError('MOCK_RENDER_FAILED', `scenario '${model}' call ${callIndex} cannot be rendered: ${(error as Error).message}`, { scenario: model });
  }
  const faulted = applyRunFaults(plan, scenario, extra.faults);
  if (!faulted.ok) return faulted.result;
  plan = faulted.plan;
  return { kind: 'replay', plan, scenarioId: model };
}

function replayScript(scenario: Scenario, requestFaults: FaultSpec[], streaming: boolean): MockResult {
  let plan: ReplayPlan;
  try {
    plan = render(scenario, { dialect: scenario.dialect, streaming, appName: scenario.id, userId: scenario.session.userId, sessionId: scenario.session.sessionId });
  } catch (error) {
    return mockError('MOCK_RENDER_FAILED', `scenario '${scenario.id}' cannot be rendered: ${(error as Error).message}`, { scenario: scenario.id });
  }
  const faulted = applyRunFaults(plan, scenario, requestFaults);
  return faulted.ok ? { kind: 'replay', plan: faulted.plan, scenarioId: scenario.id } : faulted.result;
}

function toolResult(state: MockState, request: MockRequest): MockResult {
  const id = request.params['scenarioId'] ?? '';
  const toolUseId = request.params['toolUseId'] ?? '';
  const found = scenarioFor(state, id);
  if (!found.ok) return found.result;
  const messagesOf = found.scenario.upstream.kind === 'anthropic-turn' ? found.scenario.upstream.messages : [];
  const scripted = messagesOf.some((m) => (m.toolResults ?? []).some((r) => r.toolUseId === toolUseId));
  if (!scripted) return mockError('MOCK_UNKNOWN_TOOL_USE', `scenario '${id}' scripts no tool result for tool_use id '${toolUseId}'`);
  let result: { status: number; json: unknown };
  try {
    result = anthropicToolResult(found.scenario, toolUseId);
  } catch (error) {
    return mockError('MOCK_RENDER_FAILED', `scenario '${id}': the tool result for '${toolUseId}' cannot be rendered: ${(error as Error).message}`, { scenario: id });
  }
  return jsonAnswer(result.status, result.json);
}

export const anthropicRoutes: readonly MockRoute[] = [
  { method: 'POST', path: '/v1/messages', handle: messages },
  { method: 'POST', path: '/_mock/anthropic/:scenarioId/tools/:toolUseId', handle: toolResult },
];
