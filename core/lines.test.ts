import { describe, expect, it } from 'vitest';
import { createLineSplitter } from './lines.ts';

function split(pieces: string[]): { lines: string[]; rest: string } {
  const lines: string[] = [];
  const s = createLineSplitter((l) => lines.push(l));
  for (const p of pieces) s.push(p);
  return { lines, rest: s.rest() };
}

describe('createLineSplitter', () => {
  it('gives each LF-terminated line once, however the text is cut, and keeps what follows the last LF', () => {
    const text = 'a\nbc\n\nd\r\nlast';
    for (let cut = 0; cut <= text.length; cut++) {
      for (let cut2 = cut; cut2 <= text.length; cut2++) {
        expect(split([text.slice(0, cut), text.slice(cut, cut2), text.slice(cut2)])).toEqual({ lines: ['a', 'bc', '', 'd\r'], rest: 'last' });
      }
    }
    expect(split(['x\n'])).toEqual({ lines: ['x'], rest: '' });
    expect(split([])).toEqual({ lines: [], rest: '' });
  });

  it('joins a line of many pieces once, when its LF comes', () => {
    const piece = 'y'.repeat(65_536);
    const r = split([...Array.from({ length: 96 }, () => piece), '\nz']);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]?.length).toBe(96 * 65_536);
    expect(r.rest).toBe('z');
  });

  it('says how long the line under way is without joining it', () => {
    const s = createLineSplitter(() => {});
    s.push('abc');
    s.push('de');
    expect(s.restLength()).toBe(5);
    s.push('f\ngh');
    expect(s.restLength()).toBe(2);
    expect(s.rest()).toBe('gh');
    expect(s.restLength()).toBe(2);
  });
});
