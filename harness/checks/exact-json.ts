/**
 * JSON compared as values without JavaScript's number rounding: `JSON.parse` turns
 * 12345678901234567890 into 12345678901234567000, so two bodies that differ only there would
 * compare equal. Here every number becomes a tagged string holding its exact decimal value, so a
 * number written another way with the same value (`1.0`, `1e0`, `1`) is equal and a rounded one
 * is not, while key order and whitespace still do not count.
 */

const numberTag = '\u0000number:';

/** The exact value of a JSON number as the shortest plain decimal (no exponent, no trailing zeros). */
export function exactDecimal(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new TypeError(`exactDecimal: '${text}' is not a JSON number`);
  let digits = `${m[2]}${m[3] ?? ''}`.replace(/^0+/, '');
  let exp = Number(m[4] ?? 0) - (m[3]?.length ?? 0);
  if (digits === '') return '0';
  while (digits.endsWith('0')) { digits = digits.slice(0, -1); exp++; }
  const sign = m[1] ?? '';
  if (exp >= 0) return `${sign}${digits}${'0'.repeat(exp)}`;
  const point = digits.length + exp;
  return point > 0 ? `${sign}${digits.slice(0, point)}.${digits.slice(point)}` : `${sign}0.${'0'.repeat(-point)}${digits}`;
}

/**
 * Parse JSON text with every number kept exact (a tagged string; `shownExact` prints it back).
 * Throws like JSON.parse on text that is not JSON.
 */
export function parseExactJson(text: string): unknown {
  // JSON.parse first: the tagging below would take a number JSON refuses (`01`, `.5`) for one it takes.
  JSON.parse(text);
  // Strings are matched first, so a digit inside one is never taken for a number.
  const tagged = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) => (token.startsWith('"') ? token : JSON.stringify(`${numberTag}${exactDecimal(token)}`)));
  return JSON.parse(tagged);
}

/** A value of parseExactJson as a reader expects it: numbers as their decimal, strings as strings. */
export function shownExact(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(numberTag) ? value.slice(numberTag.length) : value;
  if (Array.isArray(value)) return value.map(shownExact);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shownExact(v)]));
  return value;
}
