/**
 * Normalise what two servers answered and find the first difference. Only volatile values are
 * normalised, the set adk-python's and adk-js's own conformance replay validators exclude
 * (`cli/conformance/_replay_validators.py`: event id, timestamp, invocation id, long-running tool
 * ids, function call/response ids, thought signatures, requested auth configs / tool confirmations
 * keyed by call id; session id and last update time), plus the HTTP Date header and, when the script
 * does not pin them, token counts. They are replaced, not dropped: a placeholder keeps the key, its
 * place in the key order and the value's type, and ids are renamed by first appearance (`<call-id
 * #1>`), so a response that answers the wrong call, or two events that share an id, still differ.
 */

type Json = unknown;

export type Difference = { path: string; mock: Json; real: Json };

export type NormaliseOptions = {
  /** Token counts are compared only when every count in the script is pinned. */
  usagePinned: boolean;
};

const CALL_ID = /^adk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const TOKEN_KEY = /TokenCount$|^tokenCount$/;

function kindOf(value: Json): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function createRenamer() {
  const maps = new Map<string, Map<string, string>>();
  return (family: string, value: string): string => {
    let map = maps.get(family);
    if (!map) { map = new Map(); maps.set(family, map); }
    let name = map.get(value);
    if (!name) { name = `<${family} #${map.size + 1}>`; map.set(value, name); }
    return name;
  };
}

type Renamer = ReturnType<typeof createRenamer>;

function normaliseTokens(value: Json): Json {
  if (Array.isArray(value)) return value.map(normaliseTokens);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = TOKEN_KEY.test(k) && typeof v === 'number' ? '<tokens>' : normaliseTokens(v);
    return out;
  }
  return value;
}

/** Any JSON value: call ids wherever they appear (values and keys), invocation ids, thought signatures, usage. */
function normaliseValue(value: Json, rename: Renamer, options: NormaliseOptions): Json {
  if (typeof value === 'string') return CALL_ID.test(value) ? rename('call-id', value) : value;
  if (Array.isArray(value)) return value.map((v) => normaliseValue(v, rename, options));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = CALL_ID.test(k) ? rename('call-id', k) : k;
    if (k === 'invocationId' && typeof v === 'string') out[key] = rename('invocation', v);
    else if (k === 'thoughtSignature') out[key] = `<thought-signature ${kindOf(v)}>`;
    else if (k === 'usageMetadata' && !options.usagePinned) out[key] = normaliseTokens(normaliseValue(v, rename, options));
    else out[key] = normaliseValue(v, rename, options);
  }
  return out;
}

/** An ADK event: its own id and timestamp are volatile too. */
function normaliseEvent(event: Json, rename: Renamer, options: NormaliseOptions): Json {
  const out = normaliseValue(event, rename, options);
  if (out === null || typeof out !== 'object' || Array.isArray(out)) return out;
  const e = out as Record<string, Json>;
  const original = event as Record<string, Json>;
  if (typeof original['id'] === 'string' && ('author' in e || 'invocationId' in e)) e['id'] = rename('event-id', original['id']);
  if ('timestamp' in e && ('author' in e || 'invocationId' in e)) e['timestamp'] = `<timestamp ${kindOf(original['timestamp'])}>`;
  return e;
}

/** Date changes every second; an Express ETag hashes a body full of event ids and timestamps (research §0 lists both as per-run values). */
function normaliseHeaders(headers: Array<[string, string]>): Array<[string, string]> {
  return headers.map(([n, v]) => {
    const name = n.toLowerCase();
    if (name === 'date' && HTTP_DATE.test(v)) return [n, '<http-date>'];
    if (name === 'etag') return [n, /^W\/"[0-9a-f]+-/.test(v) ? '<etag W/"length-hash">' : v];
    return [n, v];
  });
}

export type Observed = {
  run: { status: number; headers: Array<[string, string]>; frames?: Json[]; framing?: string; body?: Json };
  session: { status: number; headers: Array<[string, string]>; body: Json };
};

/** One side's observation with its volatile values replaced; ids are renamed across the stream and the session alike. */
export function normaliseObservation(observed: Observed, options: NormaliseOptions): Observed {
  const rename = createRenamer();
  const run: Observed['run'] = { status: observed.run.status, headers: normaliseHeaders(observed.run.headers) };
  if (observed.run.framing !== undefined) run.framing = observed.run.framing;
  if (observed.run.frames !== undefined) run.frames = observed.run.frames.map((f) => normaliseEvent(f, rename, options));
  if (observed.run.body !== undefined) run.body = normaliseValue(observed.run.body, rename, options);
  let body = observed.session.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const s = { ...(body as Record<string, Json>) };
    if (Array.isArray(s['events'])) s['events'] = s['events'].map((e) => normaliseEvent(e, rename, options));
    if ('lastUpdateTime' in s) s['lastUpdateTime'] = `<time ${kindOf(s['lastUpdateTime'])}>`;
    body = normaliseValue(s, rename, options);
  }
  return { run, session: { status: observed.session.status, headers: normaliseHeaders(observed.session.headers), body } };
}

function describeKeys(keys: string[]): string {
  return `{${keys.join(', ')}}`;
}

/**
 * Where two normalised values differ, depth first in the order a reader meets them: types, then for
 * arrays each element and the length, for objects the key set, the key order, then each value.
 * Stops after `limit` differences.
 */
export function differences(mock: Json, real: Json, limit = 20): Difference[] {
  const out: Difference[] = [];
  walk(mock, real, '', out, limit);
  return out;
}

export function firstDifference(mock: Json, real: Json): Difference | undefined {
  return differences(mock, real, 1)[0];
}

function walk(mock: Json, real: Json, path: string, out: Difference[], limit: number): void {
  if (out.length >= limit) return;
  const km = kindOf(mock);
  const kr = kindOf(real);
  if (km !== kr) { out.push({ path: path || '/', mock, real }); return; }
  if (Array.isArray(mock) && Array.isArray(real)) {
    const n = Math.min(mock.length, real.length);
    for (let i = 0; i < n; i++) walk(mock[i], real[i], `${path}[${i}]`, out, limit);
    if (mock.length !== real.length && out.length < limit) out.push({ path: `${path}.length`, mock: mock.length, real: real.length });
    return;
  }
  if (km === 'object') {
    const m = mock as Record<string, Json>;
    const r = real as Record<string, Json>;
    const mk = Object.keys(m);
    const rk = Object.keys(r);
    const setDiffers = mk.some((k) => !(k in r)) || rk.some((k) => !(k in m));
    if (setDiffers) out.push({ path: `${path}{keys}`, mock: describeKeys(mk), real: describeKeys(rk) });
    else if (mk.join('\u0000') !== rk.join('\u0000')) out.push({ path: `${path}{key order}`, mock: describeKeys(mk), real: describeKeys(rk) });
    for (const k of mk) if (k in r) walk(m[k], r[k], path ? `${path}.${k}` : k, out, limit);
    return;
  }
  if (!Object.is(mock, real) && out.length < limit) out.push({ path: path || '/', mock, real });
}

/**
 * The one documented mock limitation the comparison leaves out unless asked (docs/mock.md, "What the
 * mock does not reproduce": runs store their non-partial events, not the user's event): the user's
 * own events in GET session, and the Content-Length of that answer, which counts them.
 */
export function withoutKnownLimitations(observed: Observed): Observed {
  const body = observed.session.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Array.isArray((body as Record<string, Json>)['events'])) return observed;
  const s = body as Record<string, Json>;
  const events = (s['events'] as Json[]).filter((e) => (e as Record<string, Json> | null)?.['author'] !== 'user');
  const headers = observed.session.headers.map(([n, v]): [string, string] => [n, n.toLowerCase() === 'content-length' ? '<not compared: counts the user event>' : v]);
  return { ...observed, session: { ...observed.session, headers, body: { ...s, events } } };
}

/** Compare two observations in the order a client meets them: run status, headers, framing, events, then the session. */
export function compareObservations(mock: Observed, real: Observed, limit = 20): Difference[] {
  return differences(
    { run: { status: mock.run.status, headers: mock.run.headers, framing: mock.run.framing, frames: mock.run.frames, body: mock.run.body }, session: mock.session },
    { run: { status: real.run.status, headers: real.run.headers, framing: real.run.framing, frames: real.run.frames, body: real.run.body }, session: real.session },
    limit,
  );
}
