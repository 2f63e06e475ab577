/**
 * CLI-REQ-001 and CLI-REQ-002 (module contract only): the request the client sent, as the mock
 * journalled it (`GET /_mock/requests?sessionId=`, mock-adk/server/journal.ts), against seed 004's
 * headers and RunAgentRequest. The body must be the request the harness handed the client.
 */
import { isDeepStrictEqual } from 'node:util';
import { formatIssues, validate } from '../../../schemas/registry.ts';
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, judge } from '../transformer/outcome.ts';

export type JournalledRequest = { method: string; url: string; headers: Record<string, string | string[]>; body: string };

/** adk-python's snake_case aliases: adk-js reads camelCase only (adk-wire-format §2), so they lose fields there. */
const snakeKeys = ['app_name', 'user_id', 'session_id', 'new_message', 'state_delta', 'invocation_id'];

const header = (r: JournalledRequest, name: string): string => {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v ?? '';
};

export function checkRequest(scenario: string, sent: Record<string, unknown>, journal: readonly JournalledRequest[]): CheckOutcome[] {
  const runs = journal.filter((r) => r.url.split('?')[0] === '/run_sse');
  const head: Finding[] = [];
  const body: Finding[] = [];
  if (runs.length !== 1) {
    const f = (id: string) => finding(id, 'run-requests', 'request', `${scenario}: the client sent ${runs.length} requests to /run_sse for one run (requests seen: ${journal.map((r) => `${r.method} ${r.url}`).join(', ') || 'none'})`, 1, runs.length);
    head.push(f('CLI-REQ-001'));
    if (runs.length === 0) body.push(f('CLI-REQ-002'));
  }
  const run = runs[0];
  if (run) {
    if (run.method !== 'POST') head.push(finding('CLI-REQ-001', 'method', 'request.method', `${scenario}: /run_sse was requested with ${run.method}`, 'POST', run.method));
    const accept = header(run, 'accept');
    if (!/(^|,)\s*text\/event-stream\b/i.test(accept)) head.push(finding('CLI-REQ-001', 'accept-header', 'header:accept', `${scenario}: the request does not accept text/event-stream`, 'text/event-stream', accept || 'no Accept header'));
    const type = header(run, 'content-type');
    if (!/^application\/json\b/i.test(type)) head.push(finding('CLI-REQ-001', 'content-type-header', 'header:content-type', `${scenario}: the body is not sent as JSON`, 'application/json', type || 'no Content-Type header'));
    let parsed: unknown;
    try { parsed = JSON.parse(run.body); } catch (error) {
      body.push(finding('CLI-REQ-002', 'body-not-json', 'request.body', `${scenario}: the body is not JSON: ${(error as Error).message}`, 'a RunAgentRequest', run.body.slice(0, 200)));
    }
    if (parsed !== undefined) {
      const valid = validate('run-agent-request', parsed);
      if (!valid.valid) body.push(finding('CLI-REQ-002', 'body-schema', 'request.body', `${scenario}: the body is not a valid RunAgentRequest: ${formatIssues(valid.errors)}`, 'valid against schemas/run-agent-request.schema.json', parsed));
      const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
      const snake = snakeKeys.filter((k) => k in record);
      if (snake.length > 0) body.push(finding('CLI-REQ-002', 'snake-case', 'request.body', `${scenario}: the body uses snake_case keys (${snake.join(', ')}); seed 004's request is camelCase`, 'camelCase keys', snake));
      for (const [key, value] of Object.entries(sent)) {
        if (!isDeepStrictEqual(record[key], value)) body.push(finding('CLI-REQ-002', 'body-field', `request.body/${key}`, `${scenario}: the body's ${key} is not the one the client was given`, value, record[key]));
      }
    }
  }
  return [judge('CLI-REQ-001', scenario, head), judge('CLI-REQ-002', scenario, body)];
}
