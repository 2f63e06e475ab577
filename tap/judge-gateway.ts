/**
 * Judging a gateway's live answers with the gateway requirements of seed 004, reusing the
 * harness's checks where they take one observation (headers: checkStreamHeaders; the request:
 * checkRequest; the frame timestamp: judgeTimestamp). What the harness's terminal-frame check
 * knows from its script (which failure the upstream had, how many events it sent) a single tap
 * cannot know, so the live rules here are the ones the bytes alone decide:
 *
 * - GW-ERR-001 / GW-ERR-002 / GW-TIMEOUT-001: a gateway frame has its seed 004 form
 *   (schemas/sse-error-frame.schema.json; `error` names the status for a status frame).
 * - GW-ERR-005: its timestamp is in seconds.
 * - GW-ERR-003: it is the only terminal frame and the last event (the held-open and cut cases are
 *   judged by tap/run-judge.ts, which owns the clock).
 * - GW-ERR-004: it was dispatched as its own event, not glued to a partial upstream event.
 * - GW-PASS-004: no `[DONE]` (the real ADK sends none, so a gateway added it), and no STREAM_ERROR
 *   frame after the root agent's final answer: the ADK run was complete and its server ends the
 *   stream there (seed 004's lifecycle: the connection closes when the agent completes execution),
 *   so the upstream ended normally and the frame is the gateway's own addition.
 */
import { checkRequest } from '../harness/checks/client/request.ts';
import { checkStreamHeaders } from '../harness/checks/gateway/headers.ts';
import { judgeTimestamp } from '../harness/checks/gateway/terminal-frame.ts';
import { finding } from '../harness/checks/gateway/types.ts';
import type { CheckOutcome, Finding } from '../harness/model.ts';
import { frameAt } from './judge-adk.ts';
import { validate } from '../schemas/registry.ts';
import type { TapFrame, TapRun } from './types.ts';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The requirement a gateway frame's form belongs to. */
export function gatewayFrameRequirement(json: Json): 'GW-ERR-001' | 'GW-ERR-002' | 'GW-TIMEOUT-001' {
  if (json.error_code === 'TIMEOUT') return 'GW-TIMEOUT-001';
  if (Object.hasOwn(json, 'status_code')) return 'GW-ERR-001';
  return 'GW-ERR-002';
}

const definitionOf = { 'GW-TIMEOUT-001': 'gatewayTimeout', 'GW-ERR-001': 'gatewayUpstreamStatus', 'GW-ERR-002': 'gatewayStreamError' } as const;

/** A gateway error frame (`error_code` or `status_code`): its form, its timestamp, and that it is the only one. */
export function judgeGatewayFrame(run: TapRun, frame: TapFrame, json: Json, earlierTerminal: TapFrame | undefined): Finding[] {
  const at = frameAt(frame.index);
  const req = gatewayFrameRequirement(json);
  const out: Finding[] = [];
  const result = validate(`sse-error-frame#/definitions/${definitionOf[req]}`, json);
  for (const issue of result.errors.slice(0, 3)) out.push(finding(req, 'error-frame-field', `${at}${issue.path}`, `the ${req === 'GW-ERR-001' ? 'upstream status' : req === 'GW-TIMEOUT-001' ? 'TIMEOUT' : 'STREAM_ERROR'} frame does not have seed 004's form: ${issue.path || '/'} ${issue.message}`, `seed 004's ${definitionOf[req]} frame`, json));
  if (req === 'GW-ERR-001' && typeof json.status_code === 'number' && json.error !== `ADK upstream error: ${json.status_code}`) {
    out.push(finding(req, 'error-frame-field', `${at}/error`, `the frame's error does not name the upstream status ${json.status_code}`, `ADK upstream error: ${json.status_code}`, json.error ?? null));
  }
  const stamp = judgeTimestamp(run.name, json, at);
  if (stamp) out.push(...stamp.findings);
  if (earlierTerminal) out.push(finding(req === 'GW-TIMEOUT-001' ? req : 'GW-ERR-003', 'terminal-frame-repeated', at, `a second terminal frame after the one at frame[${earlierTerminal.index}]: a failed stream ends with exactly one`, 1, 2));
  return out;
}

/** GW-ERR-004: a frame whose last data line is a gateway frame, glued to a partial event before it. */
export function gluedGatewayFrame(frame: TapFrame): Finding | undefined {
  if (!frame.data.includes('\n')) return undefined;
  const lastLine = frame.data.slice(frame.data.lastIndexOf('\n') + 1);
  let json: unknown;
  try { json = JSON.parse(lastLine); } catch { return undefined; }
  if (!isRecord(json) || !(Object.hasOwn(json, 'error_code') || Object.hasOwn(json, 'status_code'))) return undefined;
  return finding('GW-ERR-004', 'frame-not-own-event', frameAt(frame.index), 'the gateway\'s terminal frame was written without first closing the partial event before it, so a client reads both as one event and never sees the frame', 'a blank line before the frame', frame.data.slice(0, 200));
}

/** GW-ERR-003: any event after the terminal frame. */
export function afterTerminal(frame: TapFrame, terminal: TapFrame): Finding {
  return finding('GW-ERR-003', 'extra-frames', frameAt(frame.index), `an event after the terminal frame at frame[${terminal.index}]: a failed stream ends with exactly one terminal frame, last`, 'end of stream', frame.data.slice(0, 120));
}

/** GW-PASS-004: the real ADK sends no [DONE], so one on the gateway's stream was added by the gateway. */
export function doneAdded(frame: TapFrame): Finding {
  return finding('GW-PASS-004', 'event-added', frameAt(frame.index), 'the stream carries a [DONE] sentinel; the ADK server sends none, so the gateway added an event (zero mutation)', 'no [DONE]', frame.data);
}

/**
 * GW-PASS-004: a STREAM_ERROR frame after the root agent's final answer at `answerIndex` (seed 001's
 * completion rule), while the stream had not been held open: the upstream had ended normally and the
 * gateway added an error to a complete run, so its client reports a failure for a run that succeeded.
 */
export function errorAfterAnswer(frame: TapFrame, answerIndex: number): Finding {
  return finding('GW-PASS-004', 'error-frame-after-answer', frameAt(frame.index), `a STREAM_ERROR frame after the root agent's final answer at frame[${answerIndex}]: the run was complete and the ADK server ends the stream there, so the gateway added an error to a normal end (if the upstream broke in the instant after its final answer, the frame was right: \`tap --pair\` tells the two apart)`, 'the end of the stream after the final answer', frame.data.slice(0, 200));
}

/** GW-HDR-001..004 on a 200 answer, through the harness's own header check. */
export function judgeHeaders(run: TapRun): CheckOutcome[] {
  const response = run.response;
  if (!response) return [];
  return checkStreamHeaders(run.name, { status: response.status, rawHeaders: response.headers.map(([n, v]) => [n, v] as [string, string]), body: new Uint8Array(), arrivals: [], ending: 'complete', durationMs: 0 });
}

/** CLI-REQ-001 and CLI-REQ-003 on the client's request, through the harness's own request check. */
export function judgeRequest(run: TapRun, body: string): CheckOutcome[] {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of run.requestHeaders) (headers[name.toLowerCase()] ??= []).push(value);
  return checkRequest(run.name, {}, [{ method: run.method, url: run.url, headers, body }]);
}
