import { describe, expect, it } from 'vitest';
import { loadScenarioFile, defaultScenariosDir } from '../../scenarios/loader.ts';
import { render } from '../core/render.ts';
import type { RenderContext } from '../core/types.ts';
import { createRenderCache } from './render-cache.ts';

const scenario = loadScenarioFile(`${defaultScenariosDir}/plain_text_streaming.json`);
const ctx = (sessionId: string): RenderContext => ({ dialect: 'adk-js', streaming: true, appName: scenario.id, userId: 'u1', sessionId });

describe('render cache', () => {
  it('render cache answers a repeated rendering with the same plan a fresh render gives', () => {
    const cache = createRenderCache();
    const first = cache.render(scenario, ctx('s1'));
    const second = cache.render(scenario, ctx('s1'));
    expect(second).toBe(first);
    expect(second).toEqual(render(scenario, ctx('s1')));
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 1, misses: 1 });
  });

  it('render cache renders another session afresh, with that session ids', () => {
    const cache = createRenderCache();
    const one = cache.render(scenario, ctx('s1'));
    const two = cache.render(scenario, ctx('s2'));
    expect(two).not.toBe(one);
    expect(two).toEqual(render(scenario, ctx('s2')));
  });

  it('render cache renders again for another scenario object with the same id', () => {
    const cache = createRenderCache();
    const before = cache.render(scenario, ctx('s1'));
    const changed = { ...scenario, upstream: { kind: 'run', steps: [{ model: { author: 'assistant', text: 'other words' } }] } } as typeof scenario;
    const after = cache.render(changed, ctx('s1'));
    expect(after).not.toBe(before);
    expect(after.frames[0]?.data).toContain('other words');
  });

  it('render cache keeps at most maxEntries plans, dropping the least recently used', () => {
    const cache = createRenderCache({ maxEntries: 2 });
    const a = cache.render(scenario, ctx('a'));
    cache.render(scenario, ctx('b'));
    expect(cache.render(scenario, ctx('a'))).toBe(a);
    cache.render(scenario, ctx('c'));
    expect(cache.stats().entries).toBe(2);
    expect(cache.render(scenario, ctx('a'))).toBe(a);
    expect(cache.stats().misses).toBe(3);
  });

  it('render cache keeps the least-recently-used order through repeated hits on the newest plan', () => {
    const cache = createRenderCache({ maxEntries: 2 });
    const a = cache.render(scenario, ctx('a'));
    const b = cache.render(scenario, ctx('b'));
    expect(cache.render(scenario, ctx('b'))).toBe(b);
    expect(cache.render(scenario, ctx('a'))).toBe(a);
    expect(cache.render(scenario, ctx('a'))).toBe(a);
    cache.render(scenario, ctx('c'));
    // b was used least recently: it went, a stayed.
    expect(cache.render(scenario, ctx('a'))).toBe(a);
    expect(cache.render(scenario, ctx('b'))).not.toBe(b);
    expect(cache.stats()).toMatchObject({ hits: 4, misses: 4 });
  });

  it('render cache never takes two contexts for one, whatever characters their names hold', () => {
    const cache = createRenderCache();
    const contexts: RenderContext[] = [
      { ...ctx('s1'), appName: 'a', userId: 'bc' },
      { ...ctx('s1'), appName: 'ab', userId: 'c' },
      { ...ctx('s1'), appName: 'a1:b', userId: 'c' },
      { ...ctx('s1'), appName: 'a', userId: '1:bc' },
      { ...ctx('s1'), seed: '-' },
      { ...ctx('s1'), seed: '' },
      ctx('s1'),
      { ...ctx('s1'), streaming: false },
      { ...ctx('s1'), enhanced: true },
    ];
    const plans = contexts.map((c) => cache.render(scenario, c));
    expect(cache.stats()).toMatchObject({ entries: contexts.length, misses: contexts.length, hits: 0 });
    contexts.forEach((c, i) => expect(cache.render(scenario, c)).toBe(plans[i]));
  });

  it('render cache with maxEntries 0 or too few bytes keeps nothing', () => {
    for (const options of [{ maxEntries: 0 }, { maxBytes: 10 }]) {
      const cache = createRenderCache(options);
      cache.render(scenario, ctx('s1'));
      expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
    }
  });

  it('render cache refuses bounds that are not integers >= 0, naming the option', () => {
    expect(() => createRenderCache({ maxEntries: -1 })).toThrow(/maxEntries/);
    expect(() => createRenderCache({ maxBytes: 1.5 })).toThrow(/maxBytes/);
  });
});
