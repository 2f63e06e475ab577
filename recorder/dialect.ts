/**
 * Which ADK server a recorded stream came from, read off the events themselves: adk-js stamps
 * integer milliseconds and draws 8-character event ids, adk-python stamps float seconds and draws
 * uuid v4 ids (adk-wire-format §7, adk-python-facts §2.5). The response headers (Express's
 * `X-Powered-By`, uvicorn's `server`) break a tie; proxies rewrite headers, so events come first.
 */
import type { Dialect } from '../mock-adk/core/types.ts';
import type { DialectEvidence } from './types.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const shortIdPattern = /^[A-Za-z0-9]{8}$/;

/** Timestamps as they are written on the wire: `"timestamp":1795318500511` or `"timestamp":1767879087.399263`. */
const timestampToken = /"timestamp"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

export function detectDialect(frameData: readonly string[], headers: ReadonlyArray<readonly [string, string]>): DialectEvidence {
  let integers = 0;
  let floats = 0;
  let shortIds = 0;
  let uuids = 0;
  let otherIds = 0;
  for (const data of frameData) {
    // The raw text decides integer vs float: JSON.parse turns 1795318500.0 into an integer.
    for (const match of data.matchAll(timestampToken)) {
      if (/[.eE]/.test(match[1] ?? '')) floats++; else integers++;
    }
    let json: unknown;
    try { json = JSON.parse(data); } catch { continue; }
    const id = (json as { id?: unknown } | null)?.id;
    if (json === null || typeof json !== 'object' || !('invocationId' in json) || typeof id !== 'string') continue;
    if (shortIdPattern.test(id)) shortIds++;
    else if (uuidPattern.test(id)) uuids++;
    else otherIds++;
  }
  const timestamps: DialectEvidence['timestamps'] = integers + floats === 0 ? 'none' : integers > 0 && floats > 0 ? 'mixed' : integers > 0 ? 'integer-ms' : 'float-seconds';
  const kinds = [shortIds > 0, uuids > 0, otherIds > 0].filter(Boolean).length;
  const ids: DialectEvidence['ids'] = kinds === 0 ? 'none' : kinds > 1 ? 'mixed' : shortIds > 0 ? '8-char' : uuids > 0 ? 'uuid' : 'other';
  const server = serverOf(headers);

  // Votes: each kind of evidence counts once; the events outweigh the headers.
  let js = 0;
  let py = 0;
  if (timestamps === 'integer-ms') js += 2; else if (timestamps === 'float-seconds') py += 2;
  if (ids === '8-char') js += 2; else if (ids === 'uuid') py += 2;
  if (server === 'express') js += 1; else if (server === 'uvicorn') py += 1;
  // No event told the servers apart and the headers are Go's: an adk-go error answer.
  const dialect: Dialect = js === 0 && py === 0 && server === 'go' ? 'adk-go@2.0.0' : py > js ? 'adk-python' : 'adk-js';
  const said = [
    timestamps === 'none' ? 'no event timestamps' : `${timestamps} timestamps`,
    ids === 'none' ? 'no event ids' : `${ids} event ids`,
    server === 'unknown' ? 'no server header it knows' : `${server === 'express' ? 'Express' : server === 'go' ? 'Go net/http' : 'uvicorn'} headers`,
  ];
  const summary = js === py && dialect !== 'adk-go@2.0.0'
    ? `the dialect could not be told from the events (${said.join(', ')}); adk-js is assumed`
    : `detected ${dialect} from ${said.join(', ')}`;
  return { dialect, timestamps, ids, server, summary };
}

/** Which server the response headers name: Express (adk-js), uvicorn (adk-python), Go's net/http (adk-go). */
export function serverOf(headers: ReadonlyArray<readonly [string, string]>): DialectEvidence['server'] {
  for (const [name, value] of headers) {
    const n = name.toLowerCase();
    if (n === 'x-powered-by' && /express/i.test(value)) return 'express';
    if (n === 'server' && /uvicorn/i.test(value)) return 'uvicorn';
  }
  // Go's net/http `http.Error` sets X-Content-Type-Options: nosniff (adk-go's plain-text errors).
  if (headers.some(([n, v]) => n.toLowerCase() === 'x-content-type-options' && v === 'nosniff')) return 'go';
  return 'unknown';
}
