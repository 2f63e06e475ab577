import { describe, expect, it } from 'vitest';
import { jsonDifference } from './gateway/forwarding.ts';
import { exactDecimal, parseExactJson, shownExact } from './exact-json.ts';

describe('exact JSON values', () => {
  it('gives one spelling per value', () => {
    expect(['1', '1.0', '1e0', '10e-1', '0.1e1'].map(exactDecimal)).toEqual(['1', '1', '1', '1', '1']);
    expect(['-0', '0.000', '0e5'].map(exactDecimal)).toEqual(['0', '0', '0']);
    expect(['12345678901234567890', '1.5e-3', '-2.50', '127283'].map(exactDecimal)).toEqual(['12345678901234567890', '0.0015', '-2.5', '127283']);
  });

  it('tells a rounded integer apart, and ignores key order, whitespace and digits inside strings', () => {
    const sent = '{"stateDelta":{"ticket":12345678901234567890,"label":"acres 127283"},"n":1.0}';
    expect(jsonDifference(parseExactJson(sent), parseExactJson('{ "n": 1, "stateDelta": {"label":"acres 127283", "ticket":12345678901234567890} }'))).toBeUndefined();
    const rounded = jsonDifference(parseExactJson(sent), parseExactJson(JSON.stringify(JSON.parse(sent))));
    expect(rounded?.path).toBe('/stateDelta/ticket');
    expect([shownExact(rounded?.expected), shownExact(rounded?.actual)]).toEqual(['12345678901234567890', '12345678901234567000']);
  });

  it('keeps a string that looks like a number apart from the number, and escaped quotes inside strings', () => {
    expect(jsonDifference(parseExactJson('{"a":"1"}'), parseExactJson('{"a":1}'))).toBeDefined();
    expect(shownExact(parseExactJson('{"q":"say \\"42\\"","v":[1,2.50]}'))).toEqual({ q: 'say "42"', v: ['1', '2.5'] });
  });

  it('throws on text that is not JSON', () => {
    expect(() => parseExactJson('{"a":')).toThrow();
    expect(() => parseExactJson('{"a":01}')).toThrow();
  });
});
