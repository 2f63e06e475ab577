/**
 * Python `json.dumps` text, as seed 004's gateway writes its error frames: `", "` and `": "`
 * separators, and `ensure_ascii=True` (every non-ASCII character as a `\uXXXX` escape). A client
 * that compares frames with the seed's bytes sees the same text; any JSON parser reads it.
 */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return asciiString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return pyNumber(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  if (typeof value === 'object' && 'pyFloat' in value && typeof value.pyFloat === 'number' && Object.keys(value).length === 1) {
    const n = value.pyFloat;
    return Number.isInteger(n) ? `${n}.0` : pyNumber(n);
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${asciiString(k)}: ${pyJsonDumps(v)}`).join(', ')}}`;
  }
  throw new TypeError(`pyJsonDumps: cannot serialise a ${typeof value}`);
}

/** A number that Python holds as a float: it prints with a fraction even when whole (`1729350300.0`). */
export type PyFloat = { readonly pyFloat: number };

export function pyFloat(n: number): PyFloat {
  return { pyFloat: n };
}

function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  return String(n);
}

function asciiString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
