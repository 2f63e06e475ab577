/**
 * What Go's `json.NewDecoder(r).Decode(&v)` says about a body, so the adk-go mock answers a bad
 * `/run_sse` body with the text the real server puts after "failed to decode request: ".
 * Follows encoding/json's scanner.go (the state machine and its "invalid character … <context>"
 * texts) and stream.go's Decoder.readValue (io.EOF on an empty body, io.ErrUnexpectedEOF when the
 * body stops inside a value; anything after the first value is never read). Go scans bytes, so
 * an offending non-ASCII character is named by its first UTF-8 byte, as quoteChar does.
 */

export type GoScan = { ok: true; end: number } | { ok: false; message: string };

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const isDigit = (c: number | undefined): c is number => c !== undefined && c >= 0x30 && c <= 0x39;
const isHex = (c: number | undefined): boolean => c !== undefined && (isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46));

/** scanner.go quoteChar: strconv.Quote of the byte read as a rune, in single quotes. */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const named: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x5c: '\\\\' };
  if (named[c] !== undefined) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if (c >= 0x80 && c <= 0xa0) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

class SyntaxFail extends Error {}
class Eof extends Error {}

/** Scan the first JSON value of `bytes` the way Decoder.readValue does. */
export function goScanFirstValue(bytes: Uint8Array): GoScan {
  let i = 0;
  const at = (k: number): number | undefined => bytes[k];
  const fail = (c: number, context: string): never => { throw new SyntaxFail(`invalid character ${quoteChar(c)} ${context}`); };
  const need = (k: number): number => { const c = at(k); if (c === undefined) throw new Eof(); return c; };
  const skipWs = (k: number): number => { while (at(k) !== undefined && WS.has(at(k)!)) k++; return k; };

  function literal(word: string, k: number): number {
    for (let j = 1; j < word.length; j++) {
      const c = need(k + j);
      if (c !== word.charCodeAt(j)) fail(c, `in literal ${word} (expecting '${word[j]}')`);
    }
    return k + word.length;
  }

  function string(k: number): number {
    // k is just past the opening quote.
    for (;;) {
      const c = need(k);
      if (c === 0x22) return k + 1;
      if (c === 0x5c) {
        const e = need(k + 1);
        if (e === 0x75) {
          for (let j = 2; j < 6; j++) { const h = need(k + j); if (!isHex(h)) fail(h, 'in \\u hexadecimal character escape'); }
          k += 6;
        } else if ('bfnrt\\/"'.includes(String.fromCharCode(e))) {
          k += 2;
        } else {
          fail(e, 'in string escape code');
        }
        continue;
      }
      if (c < 0x20) fail(c, 'in string literal');
      k++;
    }
  }

  /** A number ends at the first byte that cannot continue it; at the end of the body it is complete. */
  function number(k: number): number {
    if (at(k) === 0x2d) { k++; const c = need(k); if (!isDigit(c)) fail(c, 'in numeric literal'); }
    if (at(k) === 0x30) k++; else while (isDigit(at(k))) k++;
    if (at(k) === 0x2e) {
      k++;
      const c = need(k);
      if (!isDigit(c)) fail(c, 'after decimal point in numeric literal');
      while (isDigit(at(k))) k++;
    }
    if (at(k) === 0x65 || at(k) === 0x45) {
      k++;
      if (at(k) === 0x2b || at(k) === 0x2d) k++;
      const c = need(k);
      if (!isDigit(c)) fail(c, 'in exponent of numeric literal');
      while (isDigit(at(k))) k++;
    }
    return k;
  }

  function value(k: number): number {
    k = skipWs(k);
    const c = need(k);
    if (c === 0x7b) return object(k + 1);
    if (c === 0x5b) return array(k + 1);
    if (c === 0x22) return string(k + 1);
    if (c === 0x2d || isDigit(c)) return number(k);
    if (c === 0x74) return literal('true', k);
    if (c === 0x66) return literal('false', k);
    if (c === 0x6e) return literal('null', k);
    return fail(c, 'looking for beginning of value');
  }

  function object(k: number): number {
    k = skipWs(k);
    if (need(k) === 0x7d) return k + 1;
    for (;;) {
      k = skipWs(k);
      const q = need(k);
      if (q !== 0x22) fail(q, 'looking for beginning of object key string');
      k = skipWs(string(k + 1));
      const colon = need(k);
      if (colon !== 0x3a) fail(colon, 'after object key');
      k = skipWs(value(k + 1));
      const next = need(k);
      if (next === 0x7d) return k + 1;
      if (next !== 0x2c) fail(next, 'after object key:value pair');
      k++;
    }
  }

  function array(k: number): number {
    k = skipWs(k);
    if (need(k) === 0x5d) return k + 1;
    for (;;) {
      k = skipWs(value(k));
      const next = need(k);
      if (next === 0x5d) return k + 1;
      if (next !== 0x2c) fail(next, 'after array element');
      k++;
    }
  }

  try {
    i = skipWs(0);
    if (at(i) === undefined) return { ok: false, message: 'EOF' };
    return { ok: true, end: value(i) };
  } catch (error) {
    if (error instanceof SyntaxFail) return { ok: false, message: error.message };
    if (error instanceof Eof) return { ok: false, message: 'unexpected EOF' };
    throw error;
  }
}

/** The `Value` word of an UnmarshalTypeError for a decoded JSON value. */
export function goKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  return 'object';
}
