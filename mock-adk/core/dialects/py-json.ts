/**
 * Python's two JSON encodings, as the adk-python server uses them:
 * - pydantic `model_dump_json` (events, sessions) and Starlette's `JSONResponse`: compact, raw
 *   UTF-8, key order = insertion order;
 * - `json.dumps` with its defaults (Gen C/D error frames): `", "` and `": "` separators and
 *   `ensure_ascii=True` (every non-ASCII or control character becomes `\uXXXX`).
 * A JS number cannot say whether it was a Python float, so floats are marked with `pyFloat()`:
 * `time.time()` stamps print as `1767081391.059711`, and an integral float keeps its `.0`.
 */

const PY_FLOAT = Symbol('pyFloat');

/** A number Python holds as a float (timestamps): serialised with Python's float repr. */
export type PyFloat = { readonly [PY_FLOAT]: number };

export function pyFloat(value: number): PyFloat {
  if (!Number.isFinite(value)) throw new TypeError(`a Python float in JSON must be finite, got ${value}`);
  return { [PY_FLOAT]: value };
}

export function isPyFloat(value: unknown): value is PyFloat {
  return typeof value === 'object' && value !== null && PY_FLOAT in value;
}

export function pyFloatValue(value: PyFloat): number {
  return value[PY_FLOAT];
}

/**
 * Python's `repr(float)`: the shortest digits that round-trip (as JS), in fixed notation when the
 * decimal exponent is in [-4, 16), else `d.ddde±XX`. (pydantic-core writes floats with ryu, which
 * agrees on every value in that range, the range of timestamps; outside it ryu writes `1e16`.)
 */
export function pyFloatRepr(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} as a JSON float`);
  if (Object.is(value, -0)) return '-0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa = '0', expText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = digits.slice(exp + 1);
    return `${sign}${intPart}.${frac.length > 0 ? frac : '0'}`;
  }
  const rest = digits.slice(1);
  const absExp = String(Math.abs(exp)).padStart(2, '0');
  return `${sign}${digits[0]}${rest.length > 0 ? `.${rest}` : ''}e${exp < 0 ? '-' : '+'}${absExp}`;
}

type Style = { itemSep: string; keySep: string; string: (s: string) => string };

function write(value: unknown, style: Style, path: string): string {
  if (value === null) return 'null';
  if (isPyFloat(value)) return pyFloatRepr(pyFloatValue(value));
  switch (typeof value) {
    case 'string': return style.string(value);
    case 'boolean': return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} at ${path || '/'} as JSON`);
      // A JSON number without a fraction is a Python int; one with a fraction is a float.
      return Number.isInteger(value) ? String(value) : pyFloatRepr(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v, i) => write(v, style, `${path}/${i}`)).join(style.itemSep)}]`;
      const parts: string[] = [];
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        // pydantic's exclude_none drops unset (None) fields; here "unset" is undefined.
        if (v === undefined) continue;
        parts.push(`${style.string(k)}${style.keySep}${write(v, style, `${path}/${k}`)}`);
      }
      return `{${parts.join(style.itemSep)}}`;
    }
    default:
      throw new TypeError(`cannot write a ${typeof value} at ${path || '/'} as JSON`);
  }
}

/** pydantic `model_dump_json(exclude_none=True, by_alias=True)` and Starlette `JSONResponse`: compact, raw UTF-8. */
export function pyCompact(value: unknown): string {
  return write(value, { itemSep: ',', keySep: ':', string: (s) => JSON.stringify(s) }, '');
}

/** `json.dumps(value)` with Python's defaults. */
export function pyDumps(value: unknown): string {
  return write(value, { itemSep: ', ', keySep: ': ', string: asciiString }, '');
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** json's `py_encode_basestring_ascii`: the regex `([\\"]|[^\ -~])`, lowercase `\uXXXX`, UTF-16 surrogates for astral characters. */
export function asciiString(s: string): string {
  return `"${s.replace(/[\\"]|[^\x20-\x7e]/g, (ch) => SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
