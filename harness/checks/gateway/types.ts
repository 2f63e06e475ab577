/**
 * What the harness observed of a gateway, as plain data. The gateway checks read only these
 * shapes; how they were produced (which instance, which socket) is the runner's business
 * (harness/targets/gateway*.ts). Every check is a pure function of an observation.
 */
import type { CheckOutcome, Finding } from '../../model.ts';

/** How one HTTP exchange with the gateway ended, from the client's side. */
export type ExchangeEnding =
  /** The response ended cleanly (chunked terminator or Content-Length reached). */
  | 'complete'
  /** The connection broke before the response ended (reset, socket closed mid-body). */
  | 'broken'
  /** The harness stopped reading on purpose (a held-open stream had delivered what it waited for). */
  | 'stopped'
  /** The harness's read bound passed first: the gateway hung. */
  | 'deadline'
  /** No response at all: the connection was refused or broke before the status line. */
  | 'connect-failed'
  /** The run was cancelled (the engine's scenario bound). */
  | 'aborted';

/** One `data` event of the response body: when it arrived and the body length after it. */
export type Arrival = { t: number; end: number };

/** One request to the gateway and everything the client saw of its answer, byte for byte. */
export type Exchange = {
  /** Undefined when no status line arrived. */
  status?: number | undefined;
  /** Header name/value pairs as they were on the wire. */
  rawHeaders: Array<[string, string]>;
  body: Uint8Array;
  arrivals: Arrival[];
  ending: ExchangeEnding;
  error?: string | undefined;
  durationMs: number;
};

/** A wait the mock scripts before writing the byte at `offset` of its body. */
export type ScriptedWait = { offset: number; ms: number };

/** What the mock writes for one run request (from `render` + `applyFaults`, deterministic). */
export type UpstreamScript = {
  status: number;
  /** The body bytes, in order, as the mock writes them. */
  bytes: Uint8Array;
  end: 'eof' | 'hold-open' | 'reset';
  waits: ScriptedWait[];
};

/** One request the mock received (its journal, `GET /_mock/requests`); header names lower-case. */
export type UpstreamRequest = { method: string; url: string; body: string; headers?: Record<string, string[]> };

/** A scenario run through the gateway's streaming endpoint. */
export type StreamRun = {
  scenario: string;
  endpoint: '/run_sse' | '/run_sse_enhanced';
  /** The JSON body the client sent. */
  sent: Record<string, unknown>;
  upstream: UpstreamScript;
  exchange: Exchange;
  /** The mock's journal entries for the run's session, or why they could not be read. */
  journal: UpstreamRequest[] | { error: string };
  /** The headers the client sent the gateway (lower-case names), for what must not go upstream. */
  clientHeaders?: Record<string, string>;
  /** `host:port` of the upstream the gateway was configured with (ADK_UPSTREAM_URL). */
  upstreamHost?: string;
};

export const pass = (requirement: string, scenario: string): CheckOutcome => ({ requirement, scenario, status: 'passed', findings: [] });

export const untested = (requirement: string, scenario: string, reason: string): CheckOutcome => ({ requirement, scenario, status: 'untested', findings: [], reason });

export const fail = (requirement: string, scenario: string, findings: Finding[]): CheckOutcome => ({ requirement, scenario, status: 'failed', findings });

export function finding(requirement: string, code: string, path: string, message: string, expected?: unknown, actual?: unknown): Finding {
  return { requirement, code, path, message, ...(expected !== undefined ? { expected } : {}), ...(actual !== undefined ? { actual } : {}) };
}

/** One outcome from a list of findings: failed when there is any, passed otherwise. */
export function judge(requirement: string, scenario: string, findings: Finding[]): CheckOutcome {
  return findings.length > 0 ? fail(requirement, scenario, findings) : pass(requirement, scenario);
}

/** The value of a header, when it was sent exactly once (undefined: absent; array: repeated). */
export function headerValues(exchange: Exchange, name: string): string[] {
  const lower = name.toLowerCase();
  return exchange.rawHeaders.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

/** Bytes shown in a finding: text when printable, with control characters escaped, cut to `max`. */
export function showBytes(bytes: Uint8Array, max = 120): string {
  const text = Buffer.from(bytes.subarray(0, max)).toString('utf8');
  const shown = JSON.stringify(text).slice(1, -1);
  return bytes.length > max ? `${shown}... (${bytes.length} bytes)` : shown;
}

/** "HTTP 401 (body: ...)": a refusal's status with the start of what the gateway said, which names the cause (a 401 that says which token check failed). */
export function answered(exchange: Exchange): string {
  return `HTTP ${exchange.status}${exchange.body.length > 0 ? ` (body: ${showBytes(exchange.body, 160)})` : ''}`;
}

/** Why the client has no usable stream, or undefined when it has one (status 200 and a body that began). */
export function noStreamReason(exchange: Exchange): string | undefined {
  if (exchange.ending === 'connect-failed') return `the request to the gateway failed before a response: ${exchange.error ?? 'no status line'}`;
  if (exchange.ending === 'aborted') return 'the run was cancelled before the gateway answered';
  if (exchange.status === undefined) return 'the gateway sent no status line';
  return undefined;
}

/**
 * A live gateway that answered nothing usable (it closed the connection, or wrote something that is
 * not HTTP): a finding for the check that owns the answer, not an excuse. A gateway whose process
 * is gone is reported untested by the runner before any check runs.
 */
export function noResponseFinding(requirement: string, exchange: Exchange): Finding | undefined {
  if (exchange.ending !== 'connect-failed') return undefined;
  return finding(requirement, 'no-response', 'status', `the gateway gave no HTTP response: ${exchange.error ?? 'the connection failed'}`, 'an HTTP response', exchange.error ?? null);
}

/** Length of the common prefix of two byte arrays. */
export function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** The line (1-based) of byte `offset` in `bytes`, for finding paths a reader can find. */
export function lineOf(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
