/**
 * An ADK session golden (generated-session*.yaml) as the steps of a `run` upstream: each persisted
 * event after the user's message becomes the step the mock renders back into that event.
 *
 * What ADK's own replay check ignores, we may drop: adk-python
 * src/google/adk/cli/conformance/_replay_validators.py (vendored in tencentyun/serverless-demo
 * @dc6aeb8f1dd804293c3c0702a7393738840b2113) compares events without `id`, `timestamp`,
 * `invocation_id`, `long_running_tool_ids`, parts' `thought_signature` and call/response `id`s,
 * and `actions.requested_auth_configs` / `requested_tool_confirmations`. Those vary per run, so
 * the mock's own values stand in (invocation and call ids are still pinned when the golden has
 * them). Everything else the script cannot express makes the case unsupported, with the reason:
 * a replay that quietly lost an event would certify a gateway against a run that never happened.
 */
import type { Scenario } from '../../schemas/types.ts';
import { field } from './read-case.ts';

type RunUpstream = Extract<Scenario['upstream'], { kind: 'run' }>;
type RunStep = RunUpstream['steps'][number];
// The generated type makes schema defaults (finishReason) required; a script leaves them out.
type ModelStep = Omit<NonNullable<RunStep['model']>, 'finishReason'> & { finishReason?: string };
/** A step as a scenario file writes it (defaults omitted). */
export type Step = { model?: ModelStep; tools?: RunStep['tools']; modelError?: RunStep['modelError'] };
type Obj = Record<string, unknown>;

export type MappedSession = {
  steps: Step[];
  invocationId?: string;
  callIds: string[];
  /** Lossy but harmless differences (the mock writes its own values), for the scenario's text. */
  notes: string[];
  /** Why the case cannot be replayed; non-empty means skipped. */
  unsupported: string[];
  transfers: Array<{ from: string; to: string }>;
};

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Event fields with a place in the script, or dropped because ADK's validator ignores them too. */
const knownEventFields = new Set(['content', 'invocation_id', 'author', 'actions', 'id', 'timestamp', 'usage_metadata', 'finish_reason', 'model_version', 'long_running_tool_ids', 'error_code', 'error_message', 'partial', 'avg_logprobs', 'logprobs_result']);
/** Noted, not replayed: the dialect writes its own value (as for seed 001's modelVersion). */
const notedEventFields = new Set(['model_version', 'avg_logprobs', 'logprobs_result']);
const knownActions = new Set(['state_delta', 'artifact_delta', 'transfer_to_agent', 'skip_summarization', 'requested_auth_configs', 'requested_tool_confirmations']);

const snake = (k: string): string => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function usageOf(raw: unknown, notes: Set<string>): ModelStep['usage'] | undefined {
  if (!isObj(raw)) return undefined;
  const usage: NonNullable<ModelStep['usage']> = {};
  const take = (key: string, to: 'promptTokenCount' | 'candidatesTokenCount' | 'totalTokenCount') => {
    const v = field(raw, key);
    if (typeof v === 'number' && Number.isInteger(v)) usage[to] = v;
  };
  take('prompt_token_count', 'promptTokenCount');
  take('candidates_token_count', 'candidatesTokenCount');
  take('total_token_count', 'totalTokenCount');
  const extra = Object.keys(raw).map(snake).filter((k) => !['prompt_token_count', 'candidates_token_count', 'total_token_count'].includes(k));
  if (extra.length > 0) notes.add(`usage_metadata's ${extra.join(', ')} (the mock writes the three token counts and its own details)`);
  return usage;
}

/** The text chunks a streaming LLM call was recorded with (partial responses), per agent, in call order. */
export function recordedChunks(recordings: unknown): Array<{ agent: string; chunks: string[] }> {
  const list = isObj(recordings) ? field(recordings, 'recordings') : undefined;
  if (!Array.isArray(list)) return [];
  const out: Array<{ agent: string; chunks: string[] }> = [];
  for (const r of list) {
    if (!isObj(r)) continue;
    const llm = field(r, 'llm_recording');
    if (!isObj(llm)) continue;
    // adk-python wrote one llm_response; adk-js and later adk-python write llm_responses (one per chunk).
    const many = field(llm, 'llm_responses');
    const responses = Array.isArray(many) ? many : [field(llm, 'llm_response')];
    const chunks = responses.filter((x): x is Obj => isObj(x) && field(x, 'partial') === true).map((x) => textOfParts(partsOf(x), false)).filter((t) => t.length > 0);
    out.push({ agent: str(field(r, 'agent_name')) ?? '', chunks });
  }
  return out;
}

function partsOf(event: Obj): Obj[] {
  const content = field(event, 'content');
  const parts = isObj(content) ? field(content, 'parts') : undefined;
  return Array.isArray(parts) ? parts.filter(isObj) : [];
}

function textOfParts(parts: Obj[], thought: boolean): string {
  return parts.filter((p) => typeof field(p, 'text') === 'string' && (field(p, 'thought') === true) === thought).map((p) => field(p, 'text') as string).join('');
}

export function mapSession(session: Obj, options: { streaming: boolean; recordings?: unknown }): MappedSession & { userMessage?: string } {
  const events = (field(session, 'events') as unknown[]).filter(isObj);
  const notes = new Set<string>();
  const unsupported: string[] = [];
  const steps: Step[] = [];
  const callIds: string[] = [];
  const invocations = new Set<string>();
  const transfers: MappedSession['transfers'] = [];
  const chunkSource = options.streaming ? recordedChunks(options.recordings) : [];
  let userMessage: string | undefined;
  let lastCalls: Array<{ name: string }> | undefined;

  events.forEach((event, i) => {
    const where = `events[${i}]`;
    const author = str(field(event, 'author')) ?? '';
    const inv = str(field(event, 'invocation_id'));
    if (inv) invocations.add(inv);
    const parts = partsOf(event);
    if (author === 'user') {
      if (userMessage !== undefined) { unsupported.push(`${where} is a second user message: the scenario format scripts one request per run`); return; }
      const nonText = parts.filter((p) => typeof field(p, 'text') !== 'string');
      if (nonText.length > 0) unsupported.push(`${where}: the user message carries ${Object.keys(nonText[0] ?? {}).join(', ')} parts; a scenario request is plain text`);
      userMessage = textOfParts(parts, false);
      return;
    }
    for (const key of Object.keys(event).map(snake)) {
      if (!knownEventFields.has(key)) unsupported.push(`${where}.${key}: the run script has no field for it, so the replayed event would lack it`);
      else if (notedEventFields.has(key)) notes.add(`${key} (the dialect writes its own)`);
    }
    if (field(event, 'partial') === true) unsupported.push(`${where} is partial: a session keeps only final events, so the golden is not one ADK wrote`);
    const actions = isObj(field(event, 'actions')) ? (field(event, 'actions') as Obj) : {};
    for (const [key, value] of Object.entries(actions)) {
      const k = snake(key);
      const empty = value === null || value === false || (isObj(value) && Object.keys(value).length === 0);
      if (!knownActions.has(k) && !empty) unsupported.push(`${where}.actions.${k}: the run script has no field for it`);
      if ((k === 'requested_auth_configs' || k === 'requested_tool_confirmations') && !empty) unsupported.push(`${where}.actions.${k}: an auth or confirmation request waits for the user, which a one-request scenario cannot answer`);
    }
    const stateDelta = field(actions, 'state_delta');
    const artifactDelta = field(actions, 'artifact_delta');
    const transferTo = str(field(actions, 'transfer_to_agent'));
    const skipSummarization = field(actions, 'skip_summarization') === true;
    const hasState = isObj(stateDelta) && Object.keys(stateDelta).length > 0;
    const hasArtifacts = isObj(artifactDelta) && Object.keys(artifactDelta).length > 0;

    for (const [j, p] of parts.entries()) {
      const kinds = Object.keys(p).map(snake).filter((k) => !['text', 'thought', 'thought_signature', 'function_call', 'function_response'].includes(k));
      if (kinds.length > 0) unsupported.push(`${where}.content.parts[${j}] is ${kinds.join(', ')}: a run step carries text, thoughts, function calls and responses only`);
      if (field(p, 'thought_signature') !== undefined) notes.add('thought_signature (ADK\'s replay check ignores it)');
    }
    const calls = parts.map((p) => field(p, 'function_call')).filter(isObj);
    const responses = parts.map((p) => field(p, 'function_response')).filter(isObj);
    const errorCode = field(event, 'error_code');

    if (errorCode !== undefined && errorCode !== null) {
      if (parts.length > 0) unsupported.push(`${where} has an error_code and content; a modelError step has none`);
      const usage = usageOf(field(event, 'usage_metadata'), notes);
      const finishReason = str(field(event, 'finish_reason'));
      const errorMessage = str(field(event, 'error_message'));
      steps.push({ modelError: { author, errorCode: String(errorCode), ...(errorMessage !== undefined ? { errorMessage } : {}), ...(finishReason ? { finishReason } : {}), ...(usage && Object.keys(usage).length > 0 ? { usage } : {}) } });
      lastCalls = undefined;
      return;
    }
    if (responses.length > 0) {
      if (calls.length > 0 || textOfParts(parts, false).length > 0) unsupported.push(`${where} mixes function responses with calls or text; a tools step holds responses only`);
      if (hasArtifacts) unsupported.push(`${where}.actions.artifact_delta on a function-response event: a tools step has no artifactDelta`);
      const names = responses.map((r) => str(field(r, 'name')) ?? '');
      const expected = lastCalls?.map((c) => c.name) ?? [];
      if (names.join('\u0000') !== expected.join('\u0000')) {
        unsupported.push(`${where} answers ${names.join(', ') || 'nothing'} but the model step before it called ${expected.join(', ') || 'nothing'}; the script needs one response per call, in call order (a long-running call answered later is not replayable)`);
      }
      const mapped = responses.map((r) => {
        const response = field(r, 'response');
        if (!isObj(response)) unsupported.push(`${where}: the response of ${str(field(r, 'name')) ?? '?'} is not a mapping`);
        return { name: str(field(r, 'name')) ?? '', response: isObj(response) ? response : {} };
      });
      if (transferTo !== undefined) transfers.push({ from: author, to: transferTo });
      steps.push({ tools: { author, responses: mapped, ...(hasState ? { stateDelta: stateDelta as Obj } : {}), ...(transferTo !== undefined ? { transferToAgent: transferTo } : {}), ...(skipSummarization ? { skipSummarization: true } : {}) } });
      lastCalls = undefined;
      return;
    }
    if (transferTo !== undefined || skipSummarization) unsupported.push(`${where}.actions: transfer_to_agent and skip_summarization belong on a function-response event; a model step has no field for them`);
    const text = textOfParts(parts, false);
    const thought = textOfParts(parts, true);
    if (parts.length === 0) {
      // The corpus writes such events as dialect bytes (state_only_first_python's raw step); the
      // importer does not write a second renderer's bytes.
      unsupported.push(`${where} has no content${hasState ? ', only a state_delta' : ''}: a model step needs text, a thought or calls (an actions-only event is scripted as raw bytes in the corpus)`);
      return;
    }
    const firstCall = parts.findIndex((p) => isObj(field(p, 'function_call')));
    if (firstCall >= 0 && parts.slice(firstCall).some((p) => typeof field(p, 'text') === 'string' && field(p, 'thought') !== true)) {
      unsupported.push(`${where} has text after a function call; the renderer writes a turn's text before its calls`);
    }
    const mappedCalls = calls.map((c) => {
      const id = str(field(c, 'id'));
      if (id) callIds.push(id);
      const args = field(c, 'args') ?? {};
      if (!isObj(args)) unsupported.push(`${where}: the args of ${str(field(c, 'name')) ?? '?'} are not a mapping`);
      return { name: str(field(c, 'name')) ?? '', args: isObj(args) ? args : {} };
    });
    const longRunning = field(event, 'long_running_tool_ids');
    const longCount = Array.isArray(longRunning) ? longRunning.length : 0;
    if (longCount > 0 && longCount !== mappedCalls.length) unsupported.push(`${where}: ${longCount} of ${mappedCalls.length} calls are long-running; the script marks all of a turn's calls or none`);
    const usage = usageOf(field(event, 'usage_metadata'), notes);
    const finishReason = str(field(event, 'finish_reason'));
    let chunks: string[] | undefined;
    if (options.streaming && text.length > 0) {
      const source = chunkSource.findIndex((c) => c.agent === author);
      const found = source >= 0 ? chunkSource.splice(0, source + 1).pop() : undefined;
      if (found && found.chunks.length > 0 && found.chunks.join('') === text) chunks = found.chunks;
      else notes.add('streamed text split into the renderer\'s default chunks where the recordings give no partial responses that join to the text');
    }
    const model: ModelStep = {
      author,
      ...(text.length > 0 ? { text } : {}),
      ...(thought.length > 0 ? { thought } : {}),
      ...(mappedCalls.length > 0 ? { calls: mappedCalls } : {}),
      ...(chunks ? { chunks } : {}),
      ...(finishReason && finishReason !== 'STOP' ? { finishReason } : {}),
      ...(usage && Object.keys(usage).length > 0 ? { usage } : { usageMissing: true }),
      ...(hasState ? { stateDelta: stateDelta as Obj } : {}),
      ...(hasArtifacts ? { artifactDelta: artifactDelta as Record<string, number> } : {}),
      ...(longCount > 0 ? { longRunning: true } : {}),
    };
    if (!finishReason && usage) notes.add('a model event without finish_reason is written with STOP');
    steps.push({ model });
    lastCalls = mappedCalls.length > 0 ? mappedCalls : undefined;
  });

  if (userMessage === undefined) unsupported.push('the session has no user event: there is no request message to replay');
  if (steps.length === 0) unsupported.push('the session has no agent event after the user message');
  if (invocations.size > 1) unsupported.push(`the session spans ${invocations.size} invocations; a scenario replays one run`);
  const [invocationId] = [...invocations];
  return { steps, ...(invocationId ? { invocationId } : {}), callIds, notes: [...notes], unsupported: [...new Set(unsupported)], transfers, ...(userMessage !== undefined ? { userMessage } : {}) };
}
