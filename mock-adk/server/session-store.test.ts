import { describe, expect, it } from 'vitest';
import { createSessionStore } from './session-store.ts';

describe('session store', () => {
  it('keeps (app, user, id) triples apart whatever characters they hold', () => {
    const store = createSessionStore({ now: () => 0 });
    const triples: Array<[string, string, string]> = [['a', 'bc', 'd'], ['ab', 'c', 'd'], ['a', 'b', 'cd'], ['1:a', 'b', 'c'], ['a', '1:b', 'c'], ['', '', 'x'], ['x', '', ''], ['', 'x', '']];
    for (const [a, u, s] of triples) expect(store.create(a, u, s, { who: `${a}|${u}|${s}` }), `${a}|${u}|${s}`).toBeDefined();
    expect(store.size()).toBe(triples.length);
    for (const [a, u, s] of triples) expect(store.get(a, u, s)?.state).toEqual({ who: `${a}|${u}|${s}` });
    expect(store.create('a', 'bc', 'd', {})).toBeUndefined();
    expect(store.get('a', 'b', 'c')).toBeUndefined();
  });
});
