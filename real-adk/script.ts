/**
 * A scenario's run script read as instructions for the REAL adk-js runtime: which agents exist,
 * which tools they hold, what each agent's model answers on its Nth LLM call, and what the client
 * sends. Pure (no ADK import), so it can say "not expressible, because ..." without the optional
 * dependencies installed.
 *
 * The script facts a model turn carries (stream chunks, default and running usage) come from the
 * mock's own `prepareTurn`, so both servers play the same script and only the server differs.
 */
import type { Scenario } from '../schemas/types.ts';
import type { ModelErrorStepInput, ModelStepInput, RunUpstreamInput, StepInput, ToolsStepInput } from '../mock-adk/core/dialects/spec.ts';
import { isAgentToolAnswer } from '../mock-adk/core/dialects/adk-js.ts';
import { prepareTurn } from '../mock-adk/core/dialects/turn.ts';
import { scenarioDialects } from '../mock-adk/core/scenario-dialects.ts';
import type { AgentSpec, Expressed, ModeGaps, ModelErrorPlay, RealScript, ToolOutcome } from './plays.ts';

class NotExpressible extends Error {}
const refuse = (reason: string): never => { throw new NotExpressible(reason); };

function modelErrorPlay(step: ModelErrorStepInput, where: string): ModelErrorPlay {
  if (step.finishReason !== undefined) {
    if (step.errorCode !== step.finishReason) refuse(`${where}: errorCode ${step.errorCode} differs from finishReason ${step.finishReason}; ADK takes the errorCode from the finishReason`);
    return { kind: 'finish', finishReason: step.finishReason, finishMessage: step.errorMessage, usage: step.usage };
  }
  if (step.usage !== undefined) refuse(`${where}: usage without finishReason; a thrown model error carries no usage`);
  if (/^[1-5]\d\d$/.test(step.errorCode)) return { kind: 'api-error', status: Number(step.errorCode), message: step.errorMessage ?? '' };
  if (step.errorCode === 'UNKNOWN_ERROR') return { kind: 'error', message: step.errorMessage ?? '' };
  return refuse(`${where}: errorCode ${step.errorCode} is neither an HTTP status, UNKNOWN_ERROR nor a finishReason`);
}

const AGENT_NOT_FOUND = /^Agent '([^']+)' not found in (.+)\. Available agents: (.*)$/s;
const TOOL_ERROR = /^Error in tool '([^']+)': ([\s\S]*)$/;
const UNKNOWN_TOOL = /^Function (\S+) is not found in the toolsDict\.$/;

/**
 * The model calls a tool its agent lacks: adk-js runs the step's calls in order and throws at the
 * first unknown one (agents/functions.js getToolAndContext), which the flow reports as an
 * UNKNOWN_ERROR event before calling the model again. The calls before it run and their results
 * are dropped: they get a play each, so later rounds keep theirs.
 */
function missingTool(caller: AgentSpec, calls: ReadonlyArray<{ name: string; args: Record<string, unknown> }>, name: string, where: string, specialist: (name: string) => AgentSpec): void {
  const at = calls.findIndex((c) => c.name === name);
  if (at < 0) refuse(`${where}: the unknown tool ${name} is none of the calls it answers`);
  (caller.missingTools ??= []).push(name);
  for (const call of calls.slice(0, at)) {
    if (isAgentToolCall(call.args, { result: '' })) {
      if (!caller.agentTools.some((t) => t.name === call.name)) caller.agentTools.push({ name: call.name, skipSummarization: false });
      specialist(call.name).plays.push({ kind: 'answer', text: '' });
      continue;
    }
    let tool = caller.functionTools.find((x) => x.name === call.name);
    if (!tool) { tool = { name: call.name, args: call.args, calls: [] }; caller.functionTools.push(tool); }
    tool.calls.push({ outcome: { kind: 'return', value: {} }, delayMs: 0 });
  }
}

/** The state-only event a before-agent callback makes: no content, only actions.stateDelta (adk-js base_agent.ts). */
function stateOnlyEvent(text: string): { author: string; state: Record<string, unknown> } | undefined {
  const m = /^data: (\{.*\})\n\n$/s.exec(text);
  if (!m) return undefined;
  let json: Record<string, unknown>;
  try { json = JSON.parse(m[1]!) as Record<string, unknown>; } catch { return undefined; }
  const actions = json['actions'] as Record<string, unknown> | undefined;
  if (typeof json['author'] !== 'string' || actions === undefined || 'content' in json || 'errorCode' in json) return undefined;
  const state = actions['stateDelta'] as Record<string, unknown> | undefined;
  if (!state || Object.keys(state).length === 0) return undefined;
  return { author: json['author'], state };
}

/** The mock's adk-js dialect reads the same calls as AgentTools, so both servers play one script alike. */
const isAgentToolCall = isAgentToolAnswer;

/** Read a scenario as a real-runtime script, or say why the real adk-js runtime cannot play it. */
export function expressScenario(scenario: Scenario): Expressed {
  try {
    const { script, notIn } = build(scenario);
    return notIn ? { ok: true, script, notIn } : { ok: true, script };
  } catch (error) {
    if (error instanceof NotExpressible) return { ok: false, reason: error.message };
    throw error;
  }
}

function build(scenario: Scenario): { script: RealScript; notIn?: ModeGaps } {
  const allowed: string[] = scenarioDialects(scenario);
  if (!allowed.includes('adk-js')) refuse(`no adk-js rendering (pinned to ${allowed.join(', ')}${scenario.pinned ? `: ${scenario.pinned}` : ''})`);
  const endpoint = scenario.request.endpoint ?? '/run_sse';
  if (endpoint !== '/run_sse') refuse(`endpoint ${endpoint}: the real adk-js server has no such route`);
  if ((scenario.faults ?? []).length > 0) refuse(`faults (${(scenario.faults ?? []).map((f) => f.name).join(', ')}) distort the server's bytes the way an intermediary would; no server writes them`);
  const up = scenario.upstream as unknown as { kind: string };
  const base = {
    scenarioId: scenario.id,
    appName: scenario.id,
    createSession: scenario.session.create !== false,
    sessionState: (scenario.session.state ?? {}) as Record<string, unknown>,
    emptyParts: false,
    message: scenario.request.message,
    ...(scenario.request.stateDelta ? { stateDelta: scenario.request.stateDelta as Record<string, unknown> } : {}),
  };
  if (up.kind === 'http') {
    const http = up as unknown as { status: number };
    // The one plain answer adk-js gives to /run_sse before any stream: the session check (research §6).
    if (scenario.session.create === false && http.status === 404) {
      return { script: { ...base, root: 'assistant', agents: new Map([['assistant', emptyAgent('assistant')]]), usagePinned: true } };
    }
    refuse(`an http upstream with status ${http.status} on an existing session: adk-js answers only a missing session before the stream`);
  }
  if (up.kind !== 'run') refuse(`a ${up.kind} upstream scripts ${up.kind === 'bytes' ? 'raw bytes' : 'another protocol'}, not an ADK run`);
  if (scenario.session.create === false) refuse('a run script on a missing session: adk-js answers 404 before running anything');
  const { notIn, ...run } = buildRun(scenario.upstream as unknown as RunUpstreamInput);
  return { script: { ...base, ...run }, ...(notIn ? { notIn } : {}) };
}

function emptyAgent(name: string): AgentSpec {
  return { name, plays: [], functionTools: [], agentTools: [], subAgents: [] };
}

/** What a run script decides; the request side (app name, message) comes from the scenario unless the script overrides the app. */
type RunPart = Pick<RealScript, 'root' | 'agents' | 'usagePinned' | 'emptyParts'> & Partial<Pick<RealScript, 'sessionFault' | 'unknownApp' | 'appName'>> & { notIn?: ModeGaps };

function buildRun(up: RunUpstreamInput): RunPart {
  if (up.end !== undefined && up.end !== 'eof') refuse(`the stream ends with ${up.end}; a real server ends every run with EOF`);
  const agents = new Map<string, AgentSpec>();
  const agent = (name: string): AgentSpec => {
    let a = agents.get(name);
    if (!a) { a = emptyAgent(name); agents.set(name, a); }
    return a;
  };
  let root: string | undefined;
  const setRoot = (name: string): void => { root ??= name; };
  let current: string | undefined;
  let llmCalls = 0;
  let usagePinned = true;
  let functionResponsesSoFar = 0;
  let pending: { author: string; calls: Array<{ name: string; args: Record<string, unknown> }>; stepIndex: number; delayMs: number } | undefined;
  let lastRoundAgentToolsOnly = false;
  const transfers: Array<{ from: string; at: number }> = [];
  const out: Omit<RunPart, 'root' | 'agents' | 'usagePinned'> = { emptyParts: false };
  const steps = up.steps as StepInput[];

  steps.forEach((step, i) => {
    const where = `steps[${i}]`;
    if ('model' in step) {
      const m = step.model as ModelStepInput;
      if (pending) refuse(`${where}: a model turn before the tools step that answers steps[${pending.stepIndex}]'s calls`);
      for (const flag of ['usageMissing', 'reissuedCallIds', 'longRunning'] as const) {
        if (m[flag] === true) refuse(`${where}.model.${flag}: ${flag === 'usageMissing' ? 'replays adk-js 1.4 to 1.6 (#645), not the 2.0.0 runtime in the loop' : flag === 'reissuedCallIds' ? 'an adk-python behaviour' : 'long-running tools are not scripted for the real runtime yet'}`);
      }
      if (m.artifactDelta && Object.keys(m.artifactDelta).length > 0) refuse(`${where}.model.artifactDelta: an adk-js model event gets no artifactDelta without a callback the script does not name`);
      const a = agent(m.author);
      setRoot(m.author);
      current = m.author;
      if (m.stateDelta && Object.keys(m.stateDelta).length > 0) {
        const keys = Object.keys(m.stateDelta);
        if (keys.length !== 1 || m.stateDelta[keys[0]!] !== m.text) refuse(`${where}.model.stateDelta: only an outputKey (one key holding the turn's text) sets state on a model event`);
        if (a.outputKey !== undefined && a.outputKey !== keys[0]) refuse(`${where}.model.stateDelta: agent ${m.author} would need two outputKeys`);
        a.outputKey = keys[0]!;
      }
      if (m.usage === undefined || ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount'].some((k) => m.usage?.[k] === undefined)) usagePinned = false;
      const turn = prepareTurn(m, { stepIndex: i, llmCallIndex: llmCalls++, callId: () => 'unused' });
      if (turn.truncate) {
        const next = steps[i + 1];
        if (!next || !('modelError' in next)) refuse(`${where}.model.truncate: the model stream stops with no error after it; a real run cannot stop there`);
      }
      a.plays.push({ kind: 'turn', turn });
      if (turn.calls.length > 0) pending = { author: m.author, calls: turn.calls, stepIndex: i, delayMs: 0 };
      return;
    }
    if ('silence' in step) {
      const ms = (step.silence as { ms: number }).ms;
      // Between a call and its result the only silence a real server makes is a tool that takes its time.
      if (!pending || !('tools' in (steps[i + 1] ?? {}))) refuse(`${where}: a silence outside a tool round has no real cause to play`);
      pending!.delayMs += ms;
      return;
    }
    if ('tools' in step) {
      const t = step.tools as ToolsStepInput;
      if (!pending) refuse(`${where}: a tools step that answers no calls`);
      const p = pending!;
      if (t.author !== p.author) refuse(`${where}.tools.author ${t.author} is not the calling agent ${p.author}; adk-js authors the results with the caller`);
      if (t.responses.length !== p.calls.length) refuse(`${where}: ${t.responses.length} responses for ${p.calls.length} calls; adk-js answers every call`);
      const caller = agent(p.author);
      t.responses.forEach((r, j) => {
        const call = p.calls[j]!;
        const extras = j === 0 ? { ...(t.stateDelta ? { stateDelta: t.stateDelta } : {}) } : {};
        if (call.name === 'transfer_to_agent') {
          const target = (call.args['agentName'] ?? call.args['agent_name']) as unknown;
          if (typeof target !== 'string') refuse(`${where}: transfer_to_agent without an agentName`);
          if (t.transferToAgent !== target) refuse(`${where}: transfer_to_agent(${String(target)}) answered without transferToAgent ${String(target)}`);
          if (!caller.subAgents.includes(target as string)) caller.subAgents.push(target as string);
          agent(target as string);
          return;
        }
        if (isAgentToolCall(call.args, r.response)) {
          const existing = caller.agentTools.find((x) => x.name === call.name);
          if (!existing) caller.agentTools.push({ name: call.name, skipSummarization: t.skipSummarization === true });
          else if (existing.skipSummarization !== (t.skipSummarization === true)) refuse(`${where}: agent tool ${call.name} is called with and without skipSummarization`);
          agent(call.name).plays.push({ kind: 'answer', text: r.response['result'] as string });
          return;
        }
        let tool = caller.functionTools.find((x) => x.name === call.name);
        if (!tool) { tool = { name: call.name, args: call.args, calls: [] }; caller.functionTools.push(tool); }
        const err = typeof r.response['error'] === 'string' && Object.keys(r.response).length === 1 ? TOOL_ERROR.exec(r.response['error']) : null;
        let outcome: ToolOutcome = { kind: 'return', value: r.response };
        if (err) {
          if (err[1] !== call.name) refuse(`${where}: the error names tool '${err[1]}' but answers ${call.name}`);
          outcome = { kind: 'throw', message: err[2]! };
        }
        tool.calls.push({ outcome, ...extras, ...(t.skipSummarization ? { skipSummarization: true } : {}), delayMs: p.delayMs });
      });
      lastRoundAgentToolsOnly = t.responses.every((r, j) => isAgentToolCall(p.calls[j]!.args, r.response));
      if (t.transferToAgent !== undefined) transfers.push({ from: p.author, at: i });
      if (t.transferToAgent !== undefined && !p.calls.some((c) => c.name === 'transfer_to_agent')) refuse(`${where}: transferToAgent without a transfer_to_agent call`);
      if (t.skipSummarization && t.responses.length > 1) refuse(`${where}: skipSummarization over several responses`);
      if (t.stateDelta && p.calls[0]?.name === 'transfer_to_agent') refuse(`${where}: stateDelta on a transfer`);
      if (t.stateDelta && isAgentToolCall(p.calls[0]!.args, t.responses[0]?.response)) refuse(`${where}: stateDelta from an agent tool`);
      functionResponsesSoFar++;
      pending = undefined;
      return;
    }
    if ('modelError' in step) {
      const e = step.modelError as ModelErrorStepInput;
      const unknown = pending ? UNKNOWN_TOOL.exec(e.errorMessage ?? '') : null;
      if (pending && unknown && e.errorCode === 'UNKNOWN_ERROR' && e.author === pending.author) {
        missingTool(agent(pending.author), pending.calls, unknown[1]!, where, agent);
        pending = undefined;
        current = e.author;
        return;
      }
      if (pending) refuse(`${where}: a model error while steps[${pending.stepIndex}]'s calls are unanswered`);
      const play = modelErrorPlay(e, `${where}.modelError`);
      if (e.usage !== undefined && ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount'].some((k) => e.usage?.[k] === undefined)) usagePinned = false;
      const a = agent(e.author);
      setRoot(e.author);
      const last = a.plays[a.plays.length - 1];
      const prev = steps[i - 1];
      // A truncated turn and the error after it are one LLM call: the stream dies mid-answer.
      if (prev && 'model' in prev && (prev.model as ModelStepInput).truncate === true && last?.kind === 'turn') {
        if ((prev.model as ModelStepInput).author !== e.author) refuse(`${where}: the truncated turn and its error have different authors`);
        last.error = play;
      } else {
        a.plays.push({ kind: 'error', error: play });
      }
      current = e.author;
      return;
    }
    if ('errorFrame' in step) {
      const ef = step.errorFrame as { message: string; style?: string };
      if ((ef.style ?? 'dialect') !== 'dialect') refuse(`${where}.errorFrame.style ${ef.style}: another server's bytes`);
      if (i !== steps.length - 1) refuse(`${where}: an error frame is the server's last word; steps follow it`);
      if (pending) refuse(`${where}: an error frame while steps[${pending.stepIndex}]'s calls are unanswered`);
      const notFound = AGENT_NOT_FOUND.exec(ef.message);
      if (i === 0 && ef.message === 'No parts in the newMessage.') { out.emptyParts = true; return; }
      if (i === 0 && notFound) {
        out.appName = notFound[1]!;
        out.unknownApp = { dir: notFound[2]!, available: notFound[3] === '(none)' ? [] : notFound[3]!.split(', ') };
        return;
      }
      const prevStep = steps[i - 1];
      if (i > 0 && !(prevStep && 'tools' in prevStep)) refuse(`${where}: an error frame right after a model turn has no failure to come from (the run would be over or still calling tools)`);
      // The session service fails the next append after the tool round (research §6: errors outside the event path).
      out.sessionFault = { afterFunctionResponses: functionResponsesSoFar, message: ef.message };
      return;
    }
    if ('raw' in step) {
      const raw = step.raw as { text?: string };
      if (raw.text === undefined) refuse(`${where}.raw: base64 bytes no server writes`);
      if (raw.text === 'data: {}\n\n') {
        if (pending || !current) refuse(`${where}: data: {} needs an agent whose next LLM call throws`);
        if (i !== steps.length - 1) refuse(`${where}: data: {} is the server's last word; steps follow it`);
        agent(current!).plays.push({ kind: 'throw-value' });
        return;
      }
      const stateOnly = stateOnlyEvent(raw.text!);
      if (stateOnly && i === 0) {
        agent(stateOnly.author).beforeState = stateOnly.state;
        setRoot(stateOnly.author);
        current = stateOnly.author;
        return;
      }
      refuse(`${where}.raw: ${JSON.stringify(raw.text!.slice(0, 40))} is not something the adk-js server writes`);
    }
  });
  if (pending) refuse(`the run ends with steps[${pending.stepIndex}]'s calls unanswered; adk-js always answers and calls the model again`);
  const last = steps[steps.length - 1];
  if (last && 'tools' in last && (last.tools as ToolsStepInput).skipSummarization !== true) {
    refuse('the run ends right after a tool round; adk-js calls the model again after function responses (only skipSummarization ends the turn there)');
  }
  if (last && 'tools' in last && lastRoundAgentToolsOnly) {
    refuse("the run ends at an agent tool's result with skipSummarization; adk-js 2.0.0's AgentTool ignores it (tools/agent_tool.js) and calls the model again, which the script does not answer");
  }
  if (root === undefined) {
    if (!out.emptyParts && !out.unknownApp && !out.sessionFault) refuse('the run has no agent');
    root = 'assistant';
    agent(root);
  }
  for (const [name, a] of agents) {
    if (a.plays.some((p) => p.kind === 'answer') && a.plays.some((p) => p.kind !== 'answer')) refuse(`agent ${name} is both an agent tool and a model turn author`);
    for (const t of a.functionTools) if (a.agentTools.some((x) => x.name === t.name)) refuse(`agent ${name} calls ${t.name} both as an agent tool and as a function tool`);
    for (const missing of a.missingTools ?? []) {
      if (a.functionTools.some((t) => t.name === missing) || a.agentTools.some((t) => t.name === missing) || a.subAgents.includes(missing)) refuse(`agent ${name} both lacks tool ${missing} (a model error says so) and has it`);
    }
  }
  // Every agent that speaks must be reachable from the root: by a transfer or as an agent tool.
  const reached = new Set<string>();
  const visit = (name: string): void => {
    if (reached.has(name)) return;
    reached.add(name);
    const a = agents.get(name);
    for (const next of [...(a?.subAgents ?? []), ...(a?.agentTools.map((t) => t.name) ?? [])]) visit(next);
  };
  visit(root);
  for (const name of agents.keys()) if (!reached.has(name)) refuse(`agent ${name} speaks without being reached from ${root} by a transfer or an agent tool`);
  const streamingGap = reinvocationGap(steps, transfers);
  return { ...out, root, agents, usagePinned, ...(streamingGap ? { notIn: { streaming: streamingGap } } : {}) };
}

/**
 * Streamed, adk-js runs a transferring agent again once its sub-agent's run is over: the
 * aggregator's trailing report closes the agent's step after tool calls (agents/llm_agent.js
 * runAsyncImpl, research §5e). Without a step for that call the script says nothing of what its
 * model answers, so the streamed run cannot be played; without streaming there is no such call
 * and the mock skips a scripted one.
 */
function reinvocationGap(steps: readonly StepInput[], transfers: ReadonlyArray<{ from: string; at: number }>): string | undefined {
  const endsInError = steps.some((s) => 'errorFrame' in s || ('raw' in s && (s.raw as { text?: string }).text === 'data: {}\n\n'));
  if (endsInError) return undefined;
  for (const t of transfers) {
    const later = steps.slice(t.at + 1).some((s) => ('model' in s && (s.model as ModelStepInput).author === t.from) || ('modelError' in s && (s.modelError as ModelErrorStepInput).author === t.from));
    if (!later) return `streamed, adk-js calls ${t.from} again after its transfer (its trailing report closes a step with tool calls) and the script has no step for that call`;
  }
  return undefined;
}
