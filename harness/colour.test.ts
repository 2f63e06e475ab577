import { describe, expect, it } from 'vitest';
import { colourEnabled, createPaint } from './colour.ts';

describe('colour', () => {
  it('a terminal gets colour, a pipe none; NO_COLOR turns it off, FORCE_COLOR on (and wins, as in Node)', () => {
    expect(colourEnabled({}, true)).toBe(true);
    expect(colourEnabled({}, false)).toBe(false);
    expect(colourEnabled({ NO_COLOR: '1' }, true)).toBe(false);
    expect(colourEnabled({ NO_COLOR: '' }, true)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colourEnabled({ FORCE_COLOR: '1', NO_COLOR: '1' }, false)).toBe(true);
    expect(colourEnabled({ TERM: 'dumb' }, true)).toBe(false);
  });

  it('FAIL is red and PASS green; without colour the words are unchanged', () => {
    expect(createPaint(true).red('FAIL')).toBe('\x1b[31mFAIL\x1b[39m');
    expect(createPaint(true).green('PASS')).toBe('\x1b[32mPASS\x1b[39m');
    expect(createPaint(false).red('FAIL')).toBe('FAIL');
  });
});
