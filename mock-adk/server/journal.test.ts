import { describe, expect, it } from 'vitest';
import { createJournal, sessionIdOf, type JournalEntry } from './journal.ts';

const entry = (n: number, body = '', sessionId?: string): JournalEntry => ({
  method: 'POST', url: `/run_sse?n=${n}`, headers: {}, body, receivedAt: new Date(0).toISOString(), ...(sessionId ? { sessionId } : {}),
});

describe('request journal', () => {
  it('keeps the last maxEntries requests and counts the dropped ones', () => {
    const journal = createJournal({ maxEntries: 3 });
    for (let n = 0; n < 5000; n++) journal.record(entry(n));
    expect(journal.list().map((e) => e.url)).toEqual(['/run_sse?n=4997', '/run_sse?n=4998', '/run_sse?n=4999']);
    expect(journal.stats()).toEqual({ size: 3, dropped: 4997, maxEntries: 3 });
  });

  it('drops the oldest bodies once their total passes the character bound, keeping the newest', () => {
    const journal = createJournal({ maxEntries: 100, maxBodyChars: 10 });
    journal.record(entry(1, 'aaaaaa'));
    journal.record(entry(2, 'bbbbbb'));
    expect(journal.list().map((e) => e.body)).toEqual(['bbbbbb']);
    journal.record(entry(3, 'c'.repeat(50)));
    expect(journal.list().map((e) => e.body)).toEqual(['c'.repeat(50)]);
  });

  it('filters by session id and clears', () => {
    const journal = createJournal();
    journal.record(entry(1, '', 's1'));
    journal.record(entry(2, '', 's2'));
    expect(journal.list({ sessionId: 's2' }).map((e) => e.url)).toEqual(['/run_sse?n=2']);
    journal.clear();
    expect(journal.list()).toEqual([]);
  });

  it('refuses a bound that is not a positive integer, saying which', () => {
    expect(() => createJournal({ maxEntries: 0 })).toThrow(/maxEntries must be a positive integer/);
  });

  it('finds the session in the body or in the URL', () => {
    expect(sessionIdOf('/run_sse', { sessionId: 's1' })).toBe('s1');
    expect(sessionIdOf('/run_sse', { session_id: 's2' })).toBe('s2');
    expect(sessionIdOf('/apps/a/users/u/sessions/s%203', undefined)).toBe('s 3');
    expect(sessionIdOf('/health', undefined)).toBeUndefined();
  });
});
