/**
 * The last step before headers hit the wire, shared by both shells. Plans stay deterministic:
 * a real server stamps `Date` when it answers, so the renderer writes the HTTP_DATE placeholder
 * (mock-adk/core/types.ts) in its wire position and the shell fills in the current HTTP date.
 * Every other header goes out exactly as given.
 */
import { HTTP_DATE } from '../core/types.ts';

export function resolveHeaders(headers: ReadonlyArray<readonly [string, string]>, now: Date = new Date()): Array<[string, string]> {
  return headers.map(([name, value]) => [name, value === HTTP_DATE ? now.toUTCString() : value]);
}

/** Node's `writeHead` takes a flat array to keep the order and the spelling of every name. */
export function flattenHeaders(headers: ReadonlyArray<readonly [string, string]>): string[] {
  const flat: string[] = [];
  for (const [name, value] of headers) flat.push(name, value);
  return flat;
}

/** Headers that describe a connection, not a response: a fetch Response (msw) has no connection. */
export const hopByHopHeaders: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/** `new Date().toUTCString()` changes once a second: made once a second (a short run writes it per request). */
let dateSecond = -1;
let dateText = '';

export function httpDateNow(nowMs: number = Date.now()): string {
  const second = Math.floor(nowMs / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}

/** A header list flattened once, with the places its date goes: plans are cached, so the same list comes back run after run. */
type FlatHeaders = { flat: readonly string[]; dateAt: readonly number[]; expressShaped: boolean };
const flattened = new WeakMap<ReadonlyArray<readonly [string, string]>, FlatHeaders>();

/**
 * A plan's headers as `writeHead` takes them (`flattenHeaders(resolveHeaders(headers))`), and
 * whether they are Express-shaped (`X-Powered-By: Express`), worked out once per header array.
 * Only for a plan's headers: a plan is never changed once rendered (plans are shared, faults
 * build new ones; render-cache.ts), which is what makes a cache by identity safe.
 */
export function planWireHeaders(headers: ReadonlyArray<readonly [string, string]>): { flat: string[]; expressShaped: boolean } {
  let known = flattened.get(headers);
  if (!known) {
    const flat = flattenHeaders(headers);
    const dateAt: number[] = [];
    for (let i = 1; i < flat.length; i += 2) if (flat[i] === HTTP_DATE) dateAt.push(i);
    known = { flat, dateAt, expressShaped: isExpressShaped(headers) };
    flattened.set(headers, known);
  }
  const flat = known.flat.slice();
  if (known.dateAt.length > 0) {
    const date = httpDateNow();
    for (const i of known.dateAt) flat[i] = date;
  }
  return { flat, expressShaped: known.expressShaped };
}

/** Express's own `X-Powered-By: Express`: the plan imitates an Express server (fastify-io.ts writeHead). */
export function isExpressShaped(headers: ReadonlyArray<readonly [string, string]>): boolean {
  return headers.some(([name, value]) => name.toLowerCase() === 'x-powered-by' && value === 'Express');
}
