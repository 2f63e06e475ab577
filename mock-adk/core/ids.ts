/**
 * Deterministic ids and clocks for rendering. A real ADK server draws event ids, call ids and
 * invocation ids at random and stamps events with the wall clock; the mock draws them from a
 * PRNG seeded by a string, so one (scenario, session) renders the same bytes every time and two
 * sessions of one scenario never share ids.
 *
 * Independent streams (`createIdStreams`) keep one kind of id stable when a scenario pins another
 * kind: pinning event ids does not shift the call ids.
 */

/** A 32-bit PRNG (sfc32) seeded from a string hash (cyrb128): small, fast, and the same everywhere. */
export type Rng = {
  /** The next unsigned 32-bit integer. */
  nextU32: () => number;
  /** An integer in [min, max], both inclusive. */
  int: (min: number, max: number) => number;
};

function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4; h2 ^= h1; h3 ^= h1; h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export function createRng(seed: string): Rng {
  let [a, b, c, d] = cyrb128(seed);
  function nextU32(): number {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const out = (t + d) | 0;
    c = (c + out) | 0;
    return out >>> 0;
  }
  // Warm-up: sfc32's first outputs are correlated with the seed words.
  for (let i = 0; i < 12; i++) nextU32();
  function int(min: number, max: number): number {
    if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
      throw new RangeError(`rng.int: need integers min <= max, got ${min} and ${max}`);
    }
    return min + (nextU32() % (max - min + 1));
  }
  return { nextU32, int };
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';

/** adk-js `createNewEventId()`: 8 characters from [a-zA-Z0-9]. */
export function alphanumericId(rng: Rng, length = 8): string {
  let id = '';
  for (let i = 0; i < length; i++) id += ALPHANUMERIC[rng.nextU32() % ALPHANUMERIC.length];
  return id;
}

/** A version-4 UUID in the canonical lowercase form Python's `str(uuid.uuid4())` and `crypto.randomUUID()` print. */
export function uuid4(rng: Rng): string {
  let hex = '';
  for (let i = 0; i < 32; i++) hex += HEX[rng.nextU32() & 15];
  // Version nibble 4 and variant bits 10xx, as RFC 9562 §5.4 requires.
  const variant = HEX[8 + (rng.nextU32() & 3)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Anthropic-style ids (`msg_01…`, `toolu_01…`, `req_011C…`): a prefix and base62 characters. */
export function base62Id(rng: Rng, prefix: string, length: number): string {
  let id = prefix;
  for (let i = 0; i < length; i++) id += BASE62[rng.nextU32() % BASE62.length];
  return id;
}

/** The separate id streams one rendering draws from. */
export type IdStreams = {
  events: Rng;
  calls: Rng;
  invocation: Rng;
  clock: Rng;
};

export function createIdStreams(seed: string): IdStreams {
  return {
    events: createRng(`${seed}|events`),
    calls: createRng(`${seed}|calls`),
    invocation: createRng(`${seed}|invocation`),
    clock: createRng(`${seed}|clock`),
  };
}

/**
 * Scripted time in microseconds. Each event moves it by the scripted wait before the event plus
 * a small jitter, so timestamps are strictly increasing and look like a real run's.
 */
export type ScriptClock = {
  /** Advance by `waitMs` plus a jitter drawn from [minJitterMs, maxJitterMs]; returns the new time in µs. */
  advance: (waitMs: number, minJitterMs: number, maxJitterMs: number) => number;
  nowMicros: () => number;
};

export function createScriptClock(startMs: number, rng: Rng): ScriptClock {
  if (!Number.isFinite(startMs) || startMs < 0) {
    throw new RangeError(`the script clock needs a start time in epoch milliseconds >= 0, got ${startMs}`);
  }
  // Sub-millisecond digits make Python's float seconds look like time.time(): six decimals.
  let micros = Math.round(startMs) * 1000 + rng.int(0, 999);
  return {
    advance(waitMs, minJitterMs, maxJitterMs) {
      micros += Math.round(waitMs * 1000) + rng.int(minJitterMs * 1000, maxJitterMs * 1000);
      return micros;
    },
    nowMicros: () => micros,
  };
}
