/**
 * Inputs for the in-process parts, rendered by the mock's own renderers (never hand-written):
 * the `data:` payloads of a Cedar Creek run for the transformer, and the Anthropic stream events
 * and tool records of an index-reuse turn for the normaliser. A long stream repeats them with
 * every id made unique per repetition, so the parts see new events, not replays they may skip.
 */
import { anthropicToolResult, renderAnthropicCall } from '../../mock-adk/core/anthropic.ts';
import { render } from '../../mock-adk/core/render.ts';
import { defaultScenariosDir, loadScenarioFile, type Scenario } from '../../scenarios/loader.ts';

/** The `data:` payload texts of a corpus run scenario, as the mock serves them to its own session. */
export function runFrames(scenarioId: string, streaming?: boolean): string[] {
  return scenarioFrames(loadScenarioFile(`${defaultScenariosDir}/${scenarioId}.json`), streaming);
}

/** The `data:` payload texts of a run scenario in its own dialect. */
export function scenarioFrames(scenario: Scenario, streaming?: boolean): string[] {
  if (scenario.upstream.kind !== 'run') throw new TypeError(`scenarioFrames: ${scenario.id} is not a run scenario (upstream.kind ${scenario.upstream.kind})`);
  const plan = render(scenario, { dialect: scenario.dialect, streaming: streaming ?? scenario.request.streaming ?? false, appName: scenario.id, userId: scenario.session.userId, sessionId: scenario.session.sessionId });
  return plan.frames.map((f) => f.data);
}

/** The input events of one normaliser turn: each call's stream events, then its tool records. */
export function turnEvents(scenarioId: string): unknown[] {
  const scenario = loadScenarioFile(`${defaultScenariosDir}/${scenarioId}.json`);
  if (scenario.upstream.kind !== 'anthropic-turn') throw new TypeError(`turnEvents: ${scenarioId} is not an anthropic-turn scenario`);
  const messages = (scenario.upstream as unknown as { messages: Array<{ toolResults?: Array<{ toolUseId: string }> }> }).messages;
  const events: unknown[] = [];
  messages.forEach((message, call) => {
    for (const frame of renderAnthropicCall(scenario, call).frames) events.push(JSON.parse(frame.data));
    for (const result of message.toolResults ?? []) {
      const answer = anthropicToolResult(scenario, result.toolUseId);
      events.push(answer.status === 200
        ? { type: 'tool_result', tool_use_id: result.toolUseId, content: answer.json.content }
        : { type: 'tool_execution_error', tool_use_id: result.toolUseId, error: String(answer.json.error) });
    }
  });
  return events;
}

const idKeys = new Set(['id', 'invocationId', 'tool_use_id']);

/** A deep copy of `value` with every id (event, invocation, call, tool use) suffixed. */
export function withIdSuffix(value: unknown, suffix: string, key?: string): unknown {
  if (typeof value === 'string') return key !== undefined && idKeys.has(key) ? `${value}${suffix}` : value;
  if (Array.isArray(value)) return value.map((v) => withIdSuffix(v, suffix, key === 'longRunningToolIds' ? 'id' : undefined));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = withIdSuffix(v, suffix, k);
  return out;
}

/** Where a copy's suffix goes in a line template (a text no id of the corpus contains). */
const suffixMark = '~~copy~~';

/** Each value as a JSON line with its ids marked, so a copy is one string replacement, not a deep copy. */
function templates(values: readonly unknown[]): string[] {
  return values.map((value) => JSON.stringify(withIdSuffix(value, suffixMark)));
}

/** `repeats` copies of a run's payloads as NDJSON lines, ids unique per copy. */
export function* repeatedLines(payloads: readonly string[], repeats: number): Generator<string> {
  const lines = templates(payloads.map((p) => JSON.parse(p) as unknown));
  for (let r = 0; r < repeats; r++) for (const line of lines) yield line.replaceAll(suffixMark, `-r${r}`);
}

/** `repeats` copies of a turn's input events as NDJSON lines, tool ids unique per copy. */
export function* repeatedEventLines(events: readonly unknown[], repeats: number): Generator<string> {
  const lines = templates(events);
  for (let r = 0; r < repeats; r++) for (const line of lines) yield line.replaceAll(suffixMark, `-r${r}`);
}
