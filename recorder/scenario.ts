/**
 * `buildScenario(exchange, options)`: a captured exchange as a scenario the mock replays byte for
 * byte. A 2xx/3xx answer becomes `upstream.kind: "bytes"`, one chunk per SSE frame with the
 * inter-frame delays, the status and the response headers in wire order; an answer >= 400 becomes
 * `kind: "http"` (the corpus's rule: an http-error outcome is an http upstream). Secrets are
 * redacted and, on request, ids and timestamps normalised before anything is written.
 */
import { framesOfBytes, utf8 } from '../mock-adk/core/frames.ts';
import { HTTP_DATE } from '../mock-adk/core/types.ts';
import type { Scenario } from '../schemas/types.ts';
import { concatBytes, sliceByFrames, utf8Text, type BodySlice } from './body.ts';
import { detectDialect } from './dialect.ts';
import { expectationsOf } from './expect.ts';
import { createNormalizer } from './normalize.ts';
import { createRedactor, defaultRedactions, droppedHeaders, redactHeaders, redactJson, type RedactionRule } from './redact.ts';
import type { CapturedExchange, DialectEvidence } from './types.ts';
import { readSse } from '../core/sse.ts';

export type BuildOptions = {
  /** The scenario id (`[a-z0-9_]+`): also the app name that selects it on the mock. */
  id: string;
  normalizeIds?: boolean;
  /** Added to the default redaction list (never replacing it). */
  redactions?: readonly RedactionRule[];
  family?: Scenario['family'];
  title?: string;
};

export type BuildResult = {
  scenario: Scenario;
  dialect: DialectEvidence;
  /** Matches replaced per redaction rule, and headers dropped. */
  redacted: Record<string, number>;
  droppedHeaders: string[];
};

type BytesChunk = { text?: string; base64?: string; delayMs?: number };

const idPattern = /^[a-z0-9_]+$/;

export function buildScenario(exchange: CapturedExchange, options: BuildOptions): BuildResult {
  if (!idPattern.test(options.id) || options.id.length > 64) throw new TypeError(`scenario id '${options.id}' must match [a-z0-9_]+ (at most 64 characters): it is the file name and the mock's app name`);
  const { request, response } = exchange;
  const redactor = createRedactor([...defaultRedactions, ...(options.redactions ?? [])]);
  const rawBody = concatBytes(response.chunks.map((c) => c.bytes));
  const rawFrames = readSse(rawBody).frames.map((f) => f.data);
  const dialect = detectDialect(rawFrames, response.headers);
  const normalizer = options.normalizeIds ? createNormalizer(options.id, dialect.dialect, rawFrames) : undefined;

  // Each slice: normalised, then redacted, as text when it is UTF-8 and byte for byte otherwise.
  const rewrite = (text: string): string => redactor.text(normalizer ? normalizer.frame(text) : text);
  const slices: BodySlice[] = sliceByFrames(response.chunks);
  const chunks: BytesChunk[] = slices.map((slice) => {
    const text = utf8Text(slice.bytes);
    const delay = slice.delayMs > 0 ? { delayMs: slice.delayMs } : {};
    if (text !== undefined) return { text: rewrite(text), ...delay };
    // Not UTF-8: latin1 maps each byte to one character, so ASCII patterns redact without touching the rest.
    const bytes = Buffer.from(rewrite(Buffer.from(slice.bytes).toString('latin1')), 'latin1');
    return { base64: bytes.toString('base64'), ...delay };
  });
  const lastAt = response.chunks[response.chunks.length - 1]?.atMs ?? 0;
  const tail = response.endAtMs !== undefined ? Math.round(response.endAtMs - lastAt) : 0;
  if (tail >= 1 && response.end === 'eof') chunks.push({ text: '', delayMs: tail });

  const body = concatBytes(chunks.map((c) => (c.text !== undefined ? utf8(c.text) : new Uint8Array(Buffer.from(c.base64 ?? '', 'base64')))));
  const frames = framesOfBytes(body);
  checkJsonKept(rawFrames, frames.map((f) => f.data), options.redactions ?? []);

  const dropped = response.headers.filter(([name]) => droppedHeaders.has(name.toLowerCase())).map(([name]) => name);
  const bodyChanged = !sameBytes(rawBody, body);
  const headers = redactHeaders(response.headers, redactor).map(([name, value]): [string, string] => {
    const lower = name.toLowerCase();
    if (lower === 'date') return [name, HTTP_DATE];
    if (lower === 'content-length' && bodyChanged) return [name, String(body.length)];
    return [name, value];
  });

  const httpAnswer = response.status >= 400;
  const expect = expectationsOf(response.status, frames, response.end, httpAnswer);
  const upstream: Scenario['upstream'] = httpAnswer
    ? { kind: 'http', status: response.status, headers, body: new TextDecoder().decode(body) }
    : { kind: 'bytes', status: response.status, headers, chunks, end: response.end };

  const streaming = request.streaming;
  const family = options.family ?? familyOf(expect.outcome, frames.map((f) => f.json));
  const normalized = options.normalizeIds === true;
  const origin = exchange.upstream;
  const scenario = {
    $schema: '../schemas/scenario.schema.json',
    id: options.id,
    title: options.title ?? titleOf(request.appName, dialect.dialect, streaming, expect.frames, expect.outcome, response.status),
    description: `Recorded from ${origin} on ${exchange.recordedAt.slice(0, 10)}: POST ${request.endpoint} for app '${clip(request.appName, 60)}'. ${capitalise(dialect.summary)}. `
      + `The bytes, the frame timing, the status and the response headers are the server's own${normalized ? ', with ids and timestamps normalised' : ''}; `
      + 'credential headers were dropped and secrets matching the redaction list were replaced with [REDACTED].',
    family,
    tags: ['recorded', streaming ? 'streaming' : 'non-streaming', ...(normalized ? ['normalized-ids'] : [])],
    specRefs: dialect.dialect === 'adk-js'
      ? [{ doc: 'adk-wire-format', section: '§3' }, { doc: 'whatwg-sse', section: '9.2.6' }]
      : [{ doc: 'adk-python-facts', section: '1.3' }, { doc: 'whatwg-sse', section: '9.2.6' }],
    dialect: dialect.dialect,
    replays: `a real ${dialect.dialect} run recorded from ${origin} (${dialect.summary}); the mock writes the recorded bytes with the recorded delays${normalized ? ', ids and timestamps normalised' : ''}.`,
    session: {
      userId: request.userId,
      sessionId: request.sessionId,
      ...(request.sessionState && Object.keys(request.sessionState).length > 0 ? { state: redactJson(request.sessionState, redactor) as Record<string, unknown> } : {}),
    },
    request: {
      message: redactor.text(request.message),
      streaming,
      ...(request.endpoint !== '/run_sse' ? { endpoint: request.endpoint } : {}),
    },
    upstream,
    expect,
  } as unknown as Scenario;
  const redacted = redactor.counts();
  return { scenario, dialect, redacted, droppedHeaders: dropped };
}

/**
 * A user pattern that matches a quote or a backslash can break a frame's JSON; that is refused
 * with the pattern's name rather than written as a scenario no consumer could read.
 */
function checkJsonKept(before: readonly string[], after: readonly string[], user: readonly RedactionRule[]): void {
  before.forEach((data, i) => {
    if (!parses(data) || parses(after[i] ?? '')) return;
    const names = user.map((r) => r.pattern.source).join(', ');
    throw new TypeError(`redaction broke the JSON of frame ${i}${names ? ` (user patterns: ${names})` : ''}; make --redact patterns match inside JSON strings only (no quotes, no backslashes)`);
  });
}

function parses(text: string): boolean {
  try { JSON.parse(text); return true; } catch { return false; }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** errors for error and http-error runs, transfer when an event transfers, else streaming. */
function familyOf(outcome: string, events: readonly unknown[]): Scenario['family'] {
  if (outcome === 'error' || outcome === 'http-error') return 'errors';
  const transfers = events.some((e) => typeof (e as { actions?: { transferToAgent?: unknown } } | null)?.actions?.transferToAgent === 'string');
  return transfers ? 'transfer' : 'streaming';
}

function titleOf(app: string, dialect: string, streaming: boolean, frames: number, outcome: string, status: number): string {
  const ending: Record<string, string> = {
    complete: 'ends at EOF after the final answer',
    error: 'ends with an error',
    cut: 'stops without a final answer',
    'hold-open': 'stays open after the final answer',
    'http-error': `is refused with HTTP ${status}`,
  };
  const head = outcome === 'http-error' ? `a recorded ${dialect} run of ${clip(app, 40)}` : `a recorded ${dialect} ${streaming ? 'streaming' : 'non-streaming'} run of ${clip(app, 40)} arrives as ${frames} frame${frames === 1 ? '' : 's'} and`;
  return `${head} ${ending[outcome] ?? 'ends'}`.replace(/\bshould\b/gi, 'shd').slice(0, 150);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
