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
