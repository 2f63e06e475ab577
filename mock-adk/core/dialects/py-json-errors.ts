/**
 * What Python's `json.loads` says about a text it cannot parse: `JSONDecodeError.msg` and `.pos`
 * (a code-point index), which FastAPI puts in its 422 body (`loc: ["body", pos]`, `ctx.error`).
 * A small scanner that follows CPython's json/decoder.py and json/scanner.py (3.12) step by step,
 * so the mock's 422 names the same position a real server would.
 */

export type PyJsonError = { msg: string; pos: number };

const WS = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/;

class Fail extends Error {
  readonly pos: number;
  constructor(msg: string, pos: number) {
    super(msg);
    this.pos = pos;
  }
}

/** Returns undefined when Python would parse the text. */
export function pyJsonError(text: string): PyJsonError | undefined {
  // Python indexes code points; work on an array of them.
  const s = Array.from(text);
  const skip = (i: number): number => { while (i < s.length && WS.has(s[i]!)) i++; return i; };

  function scanString(start: number): number {
    // `start` is just past the opening quote (py_scanstring's `end`).
    let i = start;
    for (;;) {
      if (i >= s.length) throw new Fail('Unterminated string starting at', start - 1);
      const ch = s[i]!;
      if (ch === '"') return i + 1;
      if (ch === '\\') {
        const esc = s[i + 1];
        if (esc === undefined) throw new Fail('Unterminated string starting at', start - 1);
        if (esc === 'u') {
          const hex = s.slice(i + 2, i + 6).join('');
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Fail('Invalid \\uXXXX escape', i + 1);
          i += 6;
        } else if ('"\\/bfnrt'.includes(esc)) {
          i += 2;
        } else {
          throw new Fail('Invalid \\escape', i);
        }
        continue;
      }
      if (ch.codePointAt(0)! < 0x20) throw new Fail('Invalid control character at', i);
      i++;
    }
  }

  function scanValue(i: number): number {
    const ch = s[i];
    if (ch === undefined) throw new Fail('Expecting value', i);
    if (ch === '"') return scanString(i + 1);
    if (ch === '{') return scanObject(i + 1);
    if (ch === '[') return scanArray(i + 1);
    const rest = s.slice(i, i + 9).join('');
    for (const lit of ['null', 'true', 'false', 'NaN', 'Infinity', '-Infinity']) {
      if (rest.startsWith(lit)) return i + lit.length;
    }
    const m = NUMBER.exec(s.slice(i, i + 400).join(''));
    if (m) return i + Array.from(m[0]).length;
    throw new Fail('Expecting value', i);
  }

  function scanObject(start: number): number {
    let i = skip(start);
    if (s[i] === '}') return i + 1;
    for (;;) {
      if (s[i] !== '"') throw new Fail('Expecting property name enclosed in double quotes', i);
      i = skip(scanString(i + 1));
      if (s[i] !== ':') throw new Fail("Expecting ':' delimiter", i);
      i = skip(i + 1);
      i = skip(scanValue(i));
      if (s[i] === '}') return i + 1;
      if (s[i] !== ',') throw new Fail("Expecting ',' delimiter", i);
      i = skip(i + 1);
    }
  }

  function scanArray(start: number): number {
    let i = skip(start);
    if (s[i] === ']') return i + 1;
    for (;;) {
      i = skip(scanValue(i));
      if (s[i] === ']') return i + 1;
      if (s[i] !== ',') throw new Fail("Expecting ',' delimiter", i);
      i = skip(i + 1);
    }
  }

  try {
    const end = skip(scanValue(skip(0)));
    if (end !== s.length) return { msg: 'Extra data', pos: end };
    return undefined;
  } catch (e) {
    if (e instanceof Fail) return { msg: e.message, pos: e.pos };
    throw e;
  }
}
