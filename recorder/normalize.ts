/**
 * `--normalize-ids`: a recording made twice gives different event ids, call ids, invocation ids
 * and timestamps, and nothing else (adk-wire-format, "after normalizing those values, every
 * response body from two full runs was byte-identical"). Normalising maps each distinct value to
 * a deterministic one of the same shape, seeded by the scenario id, and shifts timestamps so the
 * first one is the mock's default start time while every gap stays what it was.
 *
 * The rewrite is textual, token by token, so key order, spacing and every other byte stay put.
 */
import { alphanumericId, createRng, uuid4, type Rng } from '../mock-adk/core/ids.ts';
import type { Dialect } from '../mock-adk/core/types.ts';

/** The mock's default first timestamp (scenario.schema.json, upstream.startTime). */
export const normalizedStartMs = 1795318500000;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Normalizer = {
  /** One frame's data text with its ids and timestamps rewritten. */
  frame: (data: string) => string;
};

/** Collect every id of every frame first (`learn`), then rewrite (`frame`). */
export function createNormalizer(seed: string, dialect: Dialect, frames: readonly string[]): Normalizer {
  const rng = createRng(`record:${seed}`);
  const ids = new Map<string, string>();
  let firstTimestamp: number | undefined;

  for (const data of frames) {
    let json: unknown;
    try { json = JSON.parse(data); } catch { continue; }
    for (const [value, kind] of idsOf(json)) if (!ids.has(value)) ids.set(value, fresh(value, kind, dialect, rng));
    for (const match of data.matchAll(/"timestamp"\s*:\s*(-?\d+(?:\.\d+)?)/g)) {
      firstTimestamp ??= Number(match[1]);
    }
  }

  function frame(data: string): string {
    // Only whole JSON string tokens are replaced: an id never matches part of another string.
    let out = data.replace(/"((?:[^"\\]|\\.)*)"/g, (token, inner: string) => {
      const mapped = ids.get(inner);
      return mapped === undefined ? token : `"${mapped}"`;
    });
    out = out.replace(/("timestamp"\s*:\s*)(-?\d+(?:\.\d+)?)/g, (_, prefix: string, value: string) => `${prefix}${shiftTimestamp(value, firstTimestamp ?? Number(value), (firstTimestamp ?? Number(value)) > 1e11)}`);
    return out;
  }

  return { frame };
}

type IdKind = 'event' | 'invocation' | 'call';

/** Event ids, invocation ids and function-call ids of one event (adk-python-facts §2.5). */
function idsOf(json: unknown): Array<[string, IdKind]> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  const event = json as Record<string, unknown>;
  const found: Array<[string, IdKind]> = [];
  if (typeof event['invocationId'] === 'string') found.push([event['invocationId'], 'invocation']);
  if (typeof event['id'] === 'string' && 'invocationId' in event) found.push([event['id'], 'event']);
  const parts = (event['content'] as { parts?: unknown } | undefined)?.parts;
  if (Array.isArray(parts)) {
    for (const part of parts) {
      for (const key of ['functionCall', 'functionResponse']) {
        const id = (part as Record<string, { id?: unknown } | undefined> | null)?.[key]?.id;
        if (typeof id === 'string') found.push([id, 'call']);
      }
    }
  }
  const longRunning = event['longRunningToolIds'];
  if (Array.isArray(longRunning)) for (const id of longRunning) if (typeof id === 'string') found.push([id, 'call']);
  return found;
}

/** A new value of the same shape: `e-<uuid>` stays `e-<uuid>`, `adk-<uuid>` stays `adk-<uuid>`, 8 chars stay 8 chars. */
function fresh(value: string, kind: IdKind, dialect: Dialect, rng: Rng): string {
  const prefix = /^(e-|adk-)/.exec(value)?.[1] ?? '';
  const rest = value.slice(prefix.length);
  if (uuidPattern.test(rest)) return `${prefix}${uuid4(rng)}`;
  if (/^[A-Za-z0-9]+$/.test(rest) && rest.length > 0) return `${prefix}${alphanumericId(rng, rest.length)}`;
  // An id of a shape we do not know keeps its length and prefix, in the dialect's style.
  return kind === 'event' && dialect === 'adk-python' ? uuid4(rng) : `${prefix}${alphanumericId(rng, Math.max(rest.length, 1))}`;
}

/**
 * Integer milliseconds (adk-js) move to normalizedStartMs + the same gap; float seconds
 * (adk-python) to normalizedStartMs / 1000 + the same gap, written as Python's repr writes a float.
 */
function shiftTimestamp(raw: string, first: number, inMs: boolean): string {
  const delta = Number(raw) - first;
  if (!raw.includes('.')) return String((inMs ? normalizedStartMs : normalizedStartMs / 1000) + delta);
  const text = String(Number((normalizedStartMs / 1000 + delta).toFixed(6)));
  return text.includes('.') ? text : `${text}.0`;
}
