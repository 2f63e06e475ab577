/**
 * Turns a scripted model step into a PreparedTurn: the facts both dialects render (stream chunks,
 * usage, call ids), decided once so the two dialects never disagree on content.
 *
 * Chunking and default usage depend only on the script, never on the seed: a scenario's frame
 * count is the same for every session id, which its `expect.frames` relies on.
 */
import type { ModelStepInput, PreparedTurn, ResolvedCall, UsageInput } from './spec.ts';

/**
 * The default stream split: 3 to 4 words a chunk (the capture rig's scripted model did this,
 * research/adk-wire-format.md §0), whitespace kept with the word before it.
 */
export function splitWords(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g);
  if (!words) return text.length > 0 ? [text] : [];
  const chunks: string[] = [];
  let i = 0;
  let size = 4;
  while (i < words.length) {
    chunks.push(words.slice(i, i + size).join(''));
    i += size;
    size = size === 4 ? 3 : 4;
  }
  return chunks;
}

/** Output characters a turn "generates", for default token counts (about chars / 4, like the capture rig). */
function outputChars(step: ModelStepInput): number {
  let n = (step.text ?? '').length + (step.thought ?? '').length;
  for (const call of step.calls ?? []) n += call.name.length + JSON.stringify(call.args).length;
  return n;
}

function tokensFor(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

function withDetails(usage: UsageInput): UsageInput {
  // Gemini reports the prompt's modality breakdown; the adk-js capture shows it on every usage.
  if (usage.promptTokensDetails !== undefined || usage.promptTokenCount === undefined) return usage;
  return { ...usage, promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.promptTokenCount }] };
}

export type PrepareTurnOptions = {
  stepIndex: number;
  /** 0-based count of LLM calls before this one in the run (a longer history means a larger prompt). */
  llmCallIndex: number;
  /** Resolve a call id: a pinned one wins, else the scenario's `ids.calls`, else a fresh draw. */
  callId: (pinned: string | undefined) => string;
};

export function prepareTurn(step: ModelStepInput, options: PrepareTurnOptions): PreparedTurn {
  const where = `upstream.steps[${options.stepIndex}].model`;
  if (typeof step.author !== 'string' || step.author.length === 0) {
    throw new TypeError(`${where}.author must be a non-empty agent name`);
  }
  const calls: ResolvedCall[] = (step.calls ?? []).map((call, i) => {
    if (typeof call.name !== 'string' || call.name.length === 0) throw new TypeError(`${where}.calls[${i}].name must be a non-empty tool name`);
    if (call.args === null || typeof call.args !== 'object' || Array.isArray(call.args)) throw new TypeError(`${where}.calls[${i}].args must be an object`);
    return { name: call.name, args: call.args, id: options.callId(call.id) };
  });
  if (step.text === undefined && step.thought === undefined && calls.length === 0) {
    throw new TypeError(`${where} has no text, thought or calls: give it at least one (a turn without content is a modelError step)`);
  }
  const text = step.text;
  let textChunks: string[] = [];
  if (text !== undefined) {
    if (step.chunks !== undefined) {
      if (step.chunks.join('') !== text) {
        throw new TypeError(`${where}.chunks must join to its text exactly; they join to ${JSON.stringify(step.chunks.join('').slice(0, 60))}`);
      }
      textChunks = step.chunks.filter((c) => c.length > 0);
    } else {
      textChunks = splitWords(text);
    }
  } else if (step.chunks !== undefined) {
    throw new TypeError(`${where}.chunks splits the text, but the step has no text`);
  }

  const totalChars = outputChars(step);
  const given = step.usage ?? {};
  const prompt = given.promptTokenCount ?? 48 + 37 * options.llmCallIndex;
  const candidates = given.candidatesTokenCount ?? tokensFor(totalChars);
  const usage = withDetails({
    ...given,
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: given.totalTokenCount ?? prompt + candidates,
  });
  const runningUsage = (chars: number): UsageInput => {
    const running = step.usage?.candidatesTokenCount !== undefined && totalChars > 0
      ? Math.max(1, Math.round((candidates * chars) / totalChars))
      : tokensFor(chars);
    return withDetails({ promptTokenCount: prompt, candidatesTokenCount: running, totalTokenCount: prompt + running });
  };

  return {
    stepIndex: options.stepIndex,
    author: step.author,
    thought: step.thought,
    text,
    textChunks,
    calls,
    finishReason: step.finishReason ?? 'STOP',
    usage,
    runningUsage,
    stateDelta: step.stateDelta ?? {},
    artifactDelta: step.artifactDelta ?? {},
    longRunningToolIds: step.longRunning === true ? calls.map((c) => c.id) : [],
    truncate: step.truncate === true,
    callsWithLastChunk: step.callsWithLastChunk === true,
    // Drawn after the calls' own ids, so a scenario's pinned `ids.calls` stay the ids that run.
    previewCalls: step.reissuedCallIds === true ? calls.map((c) => ({ ...c, id: options.callId(undefined) })) : calls,
    usageMissing: step.usageMissing === true,
    delayMs: step.delayMs ?? 0,
    chunkDelayMs: step.chunkDelayMs ?? 0,
  };
}

/** The transfer tool's argument is `agentName` in adk-js and `agent_name` in Python (research §5e). */
export function transferArgs(call: ResolvedCall, key: 'agentName' | 'agent_name'): Record<string, unknown> {
  if (call.name !== 'transfer_to_agent') return call.args;
  const other = key === 'agentName' ? 'agent_name' : 'agentName';
  if (!(other in call.args)) return call.args;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call.args)) out[k === other ? key : k] = v;
  return out;
}
