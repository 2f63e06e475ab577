import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pyFloat, pyJsonDumps } from './py-json.ts';

const seed = 20_241_019;

describe('pyJsonDumps', () => {
  it('writes Python json.dumps separators', () => {
    expect(pyJsonDumps({ error: 'x', error_code: 'TIMEOUT', n: 3, list: [1, true, null] })).toBe('{"error": "x", "error_code": "TIMEOUT", "n": 3, "list": [1, true, null]}');
  });

  it('escapes non-ASCII characters as ensure_ascii does', () => {
    // Python: json.dumps("Cedar Creek — ≈ 😀 \x7f") == '"Cedar Creek \\u2014 \\u2248 \\ud83d\\ude00 \\u007f"'
    expect(pyJsonDumps('Cedar Creek — ≈ 😀 \u007f')).toBe('"Cedar Creek \\u2014 \\u2248 \\ud83d\\ude00 \\u007f"');
  });

  it('prints a whole float with a fraction, as repr(float) does', () => {
    expect(pyJsonDumps({ timestamp: pyFloat(1729350300) })).toBe('{"timestamp": 1729350300.0}');
    expect(pyJsonDumps({ timestamp: pyFloat(1729350300.123) })).toBe('{"timestamp": 1729350300.123}');
  });

  it('round-trips every JSON value through JSON.parse', () => {
    console.log(`fast-check seed ${seed}`);
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(JSON.parse(pyJsonDumps(value))).toEqual(JSON.parse(JSON.stringify(value)));
    }), { seed, numRuns: 300 });
  });

  it('refuses values JSON cannot hold', () => {
    expect(() => pyJsonDumps(() => 1)).toThrow(/cannot serialise a function/);
  });
});
