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

  it('makes a received request into its entry when listed: the time as ISO text, the session from the body or the URL', () => {
    const journal = createJournal();
    const at = Date.UTC(2026, 10, 27, 21, 0, 0, 123);
    journal.record({ method: 'POST', url: '/run_sse', headers: { 'content-type': 'application/json' }, body: ' {"sessionId":"s1","appName":"a"}', receivedAtMs: at });
    journal.record({ method: 'GET', url: '/apps/a/users/u/sessions/s%202?x=1', headers: {}, body: '', receivedAtMs: at + 1 });
    journal.record({ method: 'POST', url: '/run_sse', headers: {}, body: '{not json', receivedAtMs: at + 2 });
    const listed = journal.list();
    expect(listed).toEqual([
      { method: 'POST', url: '/run_sse', headers: { 'content-type': 'application/json' }, body: ' {"sessionId":"s1","appName":"a"}', receivedAt: '2026-11-27T21:00:00.123Z', sessionId: 's1' },
      { method: 'GET', url: '/apps/a/users/u/sessions/s%202?x=1', headers: {}, body: '', receivedAt: '2026-11-27T21:00:00.124Z', sessionId: 's 2' },
      { method: 'POST', url: '/run_sse', headers: {}, body: '{not json', receivedAt: '2026-11-27T21:00:00.125Z' },
    ]);
    expect(Object.keys(listed[0] ?? {})).toEqual(['method', 'url', 'headers', 'body', 'receivedAt', 'sessionId']);
    // Made once: a second listing gives the same entries.
    expect(journal.list()[0]).toBe(listed[0]);
    expect(journal.list({ sessionId: 's 2' }).map((e) => e.method)).toEqual(['GET']);
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
