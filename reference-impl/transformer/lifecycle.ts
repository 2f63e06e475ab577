/**
 * The seed 002 §4.1 state machine as seen from an ADK event stream: which event kind stands for
 * which state, and how a delegation is told from a plain tool call. docs/briefing-mapping.md holds
 * the full table; the branches here cite it.
 */
import { transferTarget, type Call } from './adk-event.ts';

export type CallKind = 'specialist' | 'transfer' | 'tool';

/**
 * A specialist is an agent called as a tool (AgentTool): its declaration is `{request: STRING}`
 * unless the agent has an input schema (adk-wire-format §8, adk-python-facts §3.3). A configured
 * list of specialist names is authoritative when given (agents with an input schema need it).
 */
export function classifyCall(call: Call, specialists: ReadonlySet<string> | undefined): CallKind {
  if (transferTarget(call) !== undefined) return 'transfer';
  if (specialists) return specialists.has(call.name) ? 'specialist' : 'tool';
  const keys = Object.keys(call.args);
  return keys.length === 1 && keys[0] === 'request' && typeof call.args.request === 'string' ? 'specialist' : 'tool';
}

/** A tool failure as ADK reports it in the function response (adk-wire-format §4, §6). */
export function toolFailure(response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null || Array.isArray(response)) return undefined;
  const error = (response as Record<string, unknown>).error;
  if (typeof error === 'string' && error.length > 0) return error;
  if (typeof error === 'object' && error !== null) return JSON.stringify(error);
  return undefined;
}

/** The text a specialist answered: AgentTool wraps it as `{result: "..."}` (adk-wire-format §4). */
export function resultText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (typeof response === 'object' && response !== null && !Array.isArray(response)) {
    const result = (response as Record<string, unknown>).result;
    if (typeof result === 'string') return result;
  }
  return JSON.stringify(response, null, 2) ?? '';
}

export const statusSummary = {
  thinking: (agent: string) => `${agent} is thinking`,
  delegating: (agent: string, target: string) => `${agent} delegates to ${target}`,
  transferring: (agent: string, target: string) => `${agent} transfers the conversation to ${target}`,
  executing: (agent: string, tool: string) => `${agent} runs tool ${tool}`,
  synthesizing: (agent: string) => `${agent} is synthesizing the answer`,
};

const maxSummary = 160;

/** Seed 002 §2: "One-line summary for toast/header": the first line that says something. */
export function oneLine(text: string, fallback: string): string {
  const lines = text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  // A result opens with a heading such as "### 1. Summary": the line under it is the summary; an
  // elision such as "..." says nothing, so the next line that has a letter or digit is taken.
  const says = (l: string) => /[\p{L}\p{N}]/u.test(l);
  const pick = lines.find((l) => !/^#{1,6}\s/.test(l) && says(l)) ?? lines.find(says) ?? lines[0];
  if (pick === undefined) return fallback;
  const plain = pick.replace(/^#{1,6}\s+/, '').replace(/^[-*+]\s+|^\d+\.\s+/, '').replace(/\*\*|__|`/g, '').trim();
  if (!plain) return fallback;
  return plain.length > maxSummary ? `${plain.slice(0, maxSummary - 1)}…` : plain;
}
