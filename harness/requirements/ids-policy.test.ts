/**
 * The id policy (docs/versioning.md): an id is never reused, and a changed requirement gets a new
 * id. The committed ids.lock.json lists every id ever issued; the registry must agree with it.
 */
import { describe, expect, it } from 'vitest';
import type { Requirement } from '../model.ts';
import { requirements } from './index.ts';
import { lockProblems, readLock, titleHash, updateLock, type IdsLock } from './ids-lock.ts';

const r = (id: string, title: string, level: Requirement['level'] = 'MUST'): Requirement => ({
  id, title, level, part: 'gateway', tags: [], quote: 'q', source: { doc: 'seed-004', section: 'Streaming Pattern' },
});
const lockOf = (...entries: Array<[string, string, Partial<IdsLock['ids'][string]>?]>): IdsLock => ({
  policy: 'p',
  ids: Object.fromEntries(entries.map(([id, title, extra]) => [id, { titleHash: titleHash(title), level: 'MUST', part: 'gateway', issued: '0.1.0', ...extra }])),
});

describe('ids.lock.json', () => {
  it('agrees with the registry (run npm run gen:requirements when an id was added or retired)', () => {
    expect(lockProblems(readLock(), requirements.values())).toEqual([]);
  });

  it('lists ids in order, each with a 16-digit title hash and the version that issued it', () => {
    const lock = readLock();
    expect(Object.keys(lock.ids)).toEqual(Object.keys(lock.ids).sort());
    expect(Object.values(lock.ids).every((e) => /^[0-9a-f]{16}$/.test(e.titleHash) && /^\d+\.\d+\.\d+/.test(e.issued))).toBe(true);
  });
});

describe('lockProblems', () => {
  it('accepts a registry equal to the lock', () => {
    expect(lockProblems(lockOf(['GW-X-001', 'a']), [r('GW-X-001', 'a')])).toEqual([]);
  });

  it('flags an id that disappeared and reappeared', () => {
    expect(lockProblems(lockOf(['GW-X-001', 'a', { retired: '0.2.0' }]), [r('GW-X-001', 'a')])).toEqual(['GW-X-001 was retired in 0.2.0 and is back: an id is never reused; give this requirement a new id']);
  });

  it('flags an id whose title changed without a new id', () => {
    expect(lockProblems(lockOf(['GW-X-001', 'a']), [r('GW-X-001', 'b')])[0]).toMatch(/GW-X-001 changed its title: a changed requirement gets a new id/);
  });

  it('flags an id whose level changed', () => {
    expect(lockProblems(lockOf(['GW-X-001', 'a']), [r('GW-X-001', 'a', 'SHOULD')])[0]).toMatch(/changed its level from MUST to SHOULD/);
  });

  it('flags a new id and a vanished one until the lock is updated', () => {
    expect(lockProblems(lockOf(['GW-X-001', 'a']), [r('GW-Y-001', 'b')])).toEqual([
      'GW-Y-001 is not in ids.lock.json: run npm run gen:requirements to issue it',
      'GW-X-001 is no longer in the registry: run npm run gen:requirements to mark it retired (its id will never be issued again)',
    ]);
  });
});

describe('updateLock', () => {
  it('issues new ids and retires vanished ones in one step', () => {
    const next = updateLock(lockOf(['GW-X-001', 'a']), [r('GW-Y-001', 'b')], { version: '0.2.0' });
    expect(next.ids['GW-X-001']?.retired).toBe('0.2.0');
    expect(next.ids['GW-Y-001']).toEqual({ titleHash: titleHash('b'), level: 'MUST', part: 'gateway', issued: '0.2.0' });
    expect(lockProblems(next, [r('GW-Y-001', 'b')])).toEqual([]);
  });

  it('refuses to bring a retired id back', () => {
    expect(() => updateLock(lockOf(['GW-X-001', 'a', { retired: '0.2.0' }]), [r('GW-X-001', 'a')], { version: '0.3.0' })).toThrow(/GW-X-001 was retired in 0.2.0: give the requirement a new id/);
  });

  it('refuses a changed title unless it is declared a rewording, and then keeps the old hash', () => {
    const lock = lockOf(['GW-X-001', 'a title']);
    expect(() => updateLock(lock, [r('GW-X-001', 'a new meaning')], { version: '0.2.0' })).toThrow(/pass --reword GW-X-001 if the meaning is the same/);
    const next = updateLock(lock, [r('GW-X-001', 'a tittle fixed')], { version: '0.2.0', reword: ['GW-X-001'] });
    expect(next.ids['GW-X-001']).toMatchObject({ titleHash: titleHash('a tittle fixed'), reworded: [titleHash('a title')], issued: '0.1.0' });
  });

  it('refuses a rewording of an id nobody issued', () => {
    expect(() => updateLock(lockOf(), [], { version: '0.2.0', reword: ['GW-Z-009'] })).toThrow(/--reword GW-Z-009: no issued requirement has that id/);
  });
});
