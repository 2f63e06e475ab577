/**
 * CLI-REQ-001 and CLI-REQ-003 (module contract, and the tap): the request the client sent against
 * seed 004's headers and the request model of the server the run targets. Each ADK server reads
 * the body its own way (mock-adk/server/run-request.ts, read from their sources): adk-js
 * destructures camelCase keys and ignores the rest; adk-python's pydantic model reads camelCase or
 * snake_case (`populate_by_name=True`, seed 004 "Python Model"); adk-go decodes camelCase json
 * tags strictly (`DisallowUnknownFields`). So a body is judged by what its server reads from it:
 * the run the client was given, whatever key spelling that server accepts. `streaming` is the
 * client's choice ("Optional: enable streaming (default: false)"): the stream it gets is judged
 * from the bytes served for it (harness/targets/client/proxy.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { isAdkJs, resolveDialect, versionedName } from '../../../mock-adk/core/dialects/names.ts';
import type { Dialect } from '../../../mock-adk/core/types.ts';
import { parseRunRequest } from '../../../mock-adk/server/run-request.ts';
import { formatIssues, validate } from '../../../schemas/registry.ts';
import type { CheckOutcome, Finding } from '../../model.ts';
import { finding, judge, untested } from '../transformer/outcome.ts';

export type JournalledRequest = { method: string; url: string; headers: Record<string, string | string[]>; body: string };

/** adk-python's snake_case aliases: adk-js and adk-go do not read them. */
const snakeOf: Record<string, string> = { appName: 'app_name', userId: 'user_id', sessionId: 'session_id', newMessage: 'new_message', stateDelta: 'state_delta', invocationId: 'invocation_id' };

const header = (r: JournalledRequest, name: string): string => {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v ?? '';
};

const clip = (s: string, n = 300): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value of `key` as `dialect`'s request model reads it from `body`. */
export function readField(dialect: Dialect, body: Record<string, unknown>, key: string): unknown {
  if (isAdkJs(dialect)) return body[key];
  // encoding/json: an exact tag match, else a case-insensitive one.
  if (dialect === 'adk-go@2.0.0') return key in body ? body[key] : Object.entries(body).find(([k]) => k.toLowerCase() === key.toLowerCase())?.[1];
  // populate_by_name: the alias wins when both are sent.
  const snake = snakeOf[key];
  return key in body ? body[key] : snake !== undefined ? body[snake] : undefined;
}

function judgeBody(scenario: string, dialect: Dialect, given: Record<string, unknown>, run: JournalledRequest): Finding[] {
  const name = versionedName(dialect);
  const headers: Record<string, string | undefined> = {};
  for (const key of Object.keys(run.headers)) headers[key.toLowerCase()] = header(run, key);
  const parsed = parseRunRequest(dialect, { method: run.method, url: run.url, params: {}, query: new URLSearchParams(run.url.split('?')[1] ?? ''), headers, body: run.body });
  if (!parsed.ok) {
    return [finding('CLI-REQ-003', 'refused-by-server', 'request.body', `${scenario}: ${name}'s request model refuses this body with HTTP ${parsed.answer.status}: ${clip(parsed.answer.body, 200)}`, `a body ${name} reads as the run`, clip(run.body, 200))];
  }
  let body: Record<string, unknown> = {};
  try {
    const value = JSON.parse(run.body) as unknown;
    if (isObject(value)) body = value;
  } catch { /* the server read it (adk-js reads a body that is not JSON as {}); the fields below say what it lost */ }
  const findings: Finding[] = [];
  for (const [key, want] of Object.entries(given)) {
    // The client's choice: whichever stream it asks for is the one it is judged on.
    if (key === 'streaming') continue;
    const got = readField(dialect, body, key);
    if (isDeepStrictEqual(got, want)) continue;
    const snake = snakeOf[key];
    const why = got === undefined && snake !== undefined && snake in body ? ` (the body has ${snake}; ${name} reads ${isAdkJs(dialect) ? 'camelCase keys only' : 'the camelCase json tag only, and refuses unknown keys'})` : '';
    findings.push(finding('CLI-REQ-003', 'body-field', `request.body/${key}`, `${scenario}: ${name} reads the body's ${key} as ${JSON.stringify(got) ?? 'nothing'}, not the one the client was given${why}`, want, got));
  }
  // A snake_case alias of a given key is named by that key's body-field finding already.
  const named = new Set(Object.keys(given).map((k) => snakeOf[k]).filter((k): k is string => k !== undefined && findings.length > 0));
  findings.push(...unknownKeys(scenario, dialect, body).filter((f) => !named.has(f.path.slice('request.body/'.length))));
  return findings;
}

/** The keys seed 004's RunAgentRequest lists: never an unknown key, even where a server ignores one (adk-js and invocationId). */
const seedKeys: ReadonlySet<string> = new Set(['appName', 'userId', 'sessionId', 'newMessage', 'streaming', 'stateDelta', 'invocationId']);
const jsKeys = ['appName', 'userId', 'sessionId', 'newMessage', 'streaming', 'stateDelta'];
const pyKeys = ['appName', 'userId', 'sessionId', 'newMessage', 'streaming', 'stateDelta', 'functionCallEventId', 'invocationId'];
const pySnake: Record<string, string> = { ...snakeOf, functionCallEventId: 'function_call_event_id', customMetadata: 'custom_metadata' };

/** The top-level keys `dialect`'s request model reads (adk-go refuses any other, so its body never gets this far). */
function modelKeys(dialect: Dialect): ReadonlySet<string> {
  if (isAdkJs(dialect)) return new Set(jsKeys);
  const camel = dialect === 'adk-python@2.x' ? [...pyKeys, 'customMetadata'] : pyKeys;
  return new Set(camel.flatMap((k) => [k, pySnake[k] ?? k]));
}

/**
 * A key the server does not read: what the client sent under it is dropped without a word
 * (`state` where the servers read `stateDelta`: the context is lost). Seed 004's own keys are
 * exempt: the seed lists them, whatever a server makes of them.
 */
function unknownKeys(scenario: string, dialect: Dialect, body: Record<string, unknown>): Finding[] {
  const reads = modelKeys(dialect);
  const name = versionedName(dialect);
  return Object.keys(body).filter((k) => !reads.has(k) && !seedKeys.has(k)).map((k) => {
    const hint = k === 'state' || k === 'state_delta' ? '; it reads the context as stateDelta' : '';
    return finding('CLI-REQ-003', 'unknown-key', `request.body/${k}`, `${scenario}: ${name} does not read the key ${k}: what the client sent under it is dropped without a word${hint}`, `only keys ${name} reads (${[...reads].join(', ')})`, k);
  });
}

/** The old judgement, for a caller that does not know the server (the tap): camelCase, valid against the schema. */
function judgeBodyAnyServer(scenario: string, given: Record<string, unknown>, run: JournalledRequest): Finding[] {
  let parsed: unknown;
  try { parsed = JSON.parse(run.body); } catch (error) {
    return [finding('CLI-REQ-003', 'body-not-json', 'request.body', `${scenario}: the body is not JSON: ${(error as Error).message}`, 'a RunAgentRequest', run.body.slice(0, 200))];
  }
  const findings: Finding[] = [];
  const valid = validate('run-agent-request', parsed);
  if (!valid.valid) findings.push(finding('CLI-REQ-003', 'body-schema', 'request.body', `${scenario}: the body is not a valid RunAgentRequest: ${formatIssues(valid.errors)}`, 'valid against schemas/run-agent-request.schema.json', parsed));
  const record = isObject(parsed) ? parsed : {};
  const snake = Object.values(snakeOf).filter((k) => k in record);
  if (snake.length > 0) findings.push(finding('CLI-REQ-003', 'snake-case', 'request.body', `${scenario}: the body uses snake_case keys (${snake.join(', ')}), which only adk-python reads; with the server unknown, camelCase is the spelling every server reads`, 'camelCase keys', snake));
  for (const [key, value] of Object.entries(given)) {
    if (key !== 'streaming' && !isDeepStrictEqual(record[key], value)) findings.push(finding('CLI-REQ-003', 'body-field', `request.body/${key}`, `${scenario}: the body's ${key} is not the one the client was given`, value, record[key]));
  }
  return findings;
}

/**
 * `dialect`: the server the run targets (a scenario's dialect, any accepted name); without it the
 * body must be one every server reads (camelCase, schema-valid).
 */
export function checkRequest(scenario: string, sent: Record<string, unknown>, journal: readonly JournalledRequest[], dialect?: string): CheckOutcome[] {
  const server = dialect === undefined ? undefined : resolveDialect(dialect);
  if (dialect !== undefined && server === undefined) throw new TypeError(`checkRequest: unknown dialect ${JSON.stringify(dialect)}; pass a scenario's dialect (mock-adk/core/dialects/names.ts)`);
  const runs = journal.filter((r) => r.url.split('?')[0] === '/run_sse');
  const head: Finding[] = [];
  const body: Finding[] = [];
  // More than one is CLI-REQ-004's (checkRunCount), which only a caller that saw the whole run can judge.
  if (runs.length === 0) {
    const f = (id: string) => finding(id, 'run-requests', 'request', `${scenario}: the client sent no request to /run_sse for the run (requests seen: ${journal.map((r) => `${r.method} ${r.url}`).join(', ') || 'none'})`, 1, 0);
    head.push(f('CLI-REQ-001'));
    body.push(f('CLI-REQ-003'));
  }
  const run = runs[0];
  if (run) {
    if (run.method !== 'POST') head.push(finding('CLI-REQ-001', 'method', 'request.method', `${scenario}: /run_sse was requested with ${run.method}`, 'POST', run.method));
    const accept = header(run, 'accept');
    if (!/(^|,)\s*text\/event-stream\b/i.test(accept)) head.push(finding('CLI-REQ-001', 'accept-header', 'header:accept', `${scenario}: the request does not accept text/event-stream`, 'text/event-stream', accept || 'no Accept header'));
    const type = header(run, 'content-type');
    if (!/^application\/json\b/i.test(type)) head.push(finding('CLI-REQ-001', 'content-type-header', 'header:content-type', `${scenario}: the body is not sent as JSON`, 'application/json', type || 'no Content-Type header'));
    body.push(...(server === undefined ? judgeBodyAnyServer(scenario, sent, run) : judgeBody(scenario, server, sent, run)));
  }
  return [judge('CLI-REQ-001', scenario, head), judge('CLI-REQ-003', scenario, body)];
}

/**
 * CLI-REQ-004: one run, one POST /run_sse (adk-python #4506: a retried run appends the user's
 * message again and runs the agent again). `openAtNext[i]`: whether run i's stream was still open
 * when run i+1 was sent, which the message names. Judged only where the whole run was seen (the
 * module contract's proxy); zero requests are CLI-REQ-001's.
 */
export function checkRunCount(scenario: string, journal: readonly JournalledRequest[], openAtNext: readonly boolean[] = []): CheckOutcome {
  const runs = journal.filter((r) => r.method === 'POST' && r.url.split('?')[0] === '/run_sse');
  if (runs.length === 0) return untested('CLI-REQ-004', scenario, `${scenario}: the client sent no POST /run_sse, so there was no run to send again (CLI-REQ-001 says why)`);
  if (runs.length === 1) return judge('CLI-REQ-004', scenario, []);
  const open = openAtNext.some(Boolean) ? ', the first while its stream was still open (the server was still writing it, and the client had not aborted it)' : '';
  return judge('CLI-REQ-004', scenario, [finding('CLI-REQ-004', 'run-reposted', 'request', `${scenario}: the client sent the run ${runs.length} times${open}; each POST appends the user's message to the session and runs the agent again (adk-python #4506)`, 1, runs.length)]);
}
