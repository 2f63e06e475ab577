/**
 * Clients that report parsed values (issue 31 §3): `{"value": ...}` records are judged as values
 * against the stream's data; what JSON.parse erases (CLI-DATA-003/004) is not judged; data that
 * parses to no object may be reported as anything or left out.
 */
import { describe, expect, it } from 'vitest';
import { expectedFor } from './expected.ts';
import { checkClient, type ClientCase, type ReportedRecord } from './index.ts';

const bytes = (text: string) => [new TextEncoder().encode(text)];
const kase = (text: string, requirements: string[] = ['CLI-SPLIT-001']): ClientCase => ({ scenario: 's', label: 's', requirements, expected: expectedFor(bytes(text), 'eof'), form: 'parsed' });
const records = (...values: unknown[]): { records: ReportedRecord[]; problems: [] } => ({ records: values.map((value, i) => ({ line: i + 1, value })), problems: [] });
const failed = (outcomes: ReturnType<typeof checkClient>) => outcomes.filter((o) => o.status === 'failed').map((o) => `${o.requirement}:${o.findings.map((f) => f.code).join(',')}`);
const eof = { end: 'eof', completed: true };

describe('parsed-value records', () => {
  const stream = 'data: {"author":"a","content":{"parts":[{"text":"hi"}]}}\n\ndata: {"b":2,"a":1}\n\n';

  it('the values of the stream, in any key order, pass', () => {
    const outcomes = checkClient(kase(stream), records({ value: { author: 'a', content: { parts: [{ text: 'hi' }] } } }, { value: { a: 1, b: 2 } }, eof));
    expect(failed(outcomes)).toEqual([]);
    expect(outcomes.find((o) => o.requirement === 'CLI-SPLIT-001')?.status).toBe('passed');
  });

  it('a value that lost a key, or an event dropped, fails CLI-SPLIT-001', () => {
    expect(failed(checkClient(kase(stream), records({ value: { author: 'a' } }, { value: { a: 1, b: 2 } }, eof)))).toEqual(['CLI-SPLIT-001:data-differs']);
    expect(failed(checkClient(kase(stream), records({ value: { a: 1, b: 2 } }, eof)))).toEqual(['CLI-SPLIT-001:event-count']);
  });

  it('a raw record from a client that declared parsed values is a CLI-OUT-001 finding naming the form', () => {
    const outcomes = checkClient(kase(stream), records({ data: '{"b":2,"a":1}' }, eof));
    expect(outcomes.find((o) => o.requirement === 'CLI-OUT-001')?.findings[0]?.message).toMatch(/recordForm "parsed"/);
  });

  it('data that parses to no object (a legacy error line, [DONE]) may be reported as anything, or not at all', () => {
    const legacy = 'data: {"a":1}\n\ndata: {"error": "bad "quote""}\n\n';
    const c = { ...kase(legacy), expected: { ...expectedFor(bytes(legacy), 'eof') } };
    expect(failed(checkClient(c, records({ value: { a: 1 } }, { value: { error: 'bad "quote"' } }, { end: c.expected.end.end, completed: c.expected.end.completed })))).toEqual([]);
    expect(failed(checkClient(c, records({ value: { a: 1 } }, { end: c.expected.end.end, completed: c.expected.end.completed })))).toEqual([]);
  });

  it('CLI-DATA-003 and CLI-DATA-004 get no outcome: JSON.parse erases what they judge', () => {
    const outcomes = checkClient(kase('data: {"a":\ndata: 1}\n\n', ['CLI-DATA-003', 'CLI-DATA-004']), records({ value: { a: 1 } }, eof));
    expect(outcomes.map((o) => o.requirement)).not.toContain('CLI-DATA-003');
    expect(outcomes.map((o) => o.requirement)).not.toContain('CLI-DATA-004');
  });

  it('a case whose events are all text shows nothing about its own requirements to a parsed client: no outcome for them', () => {
    const outcomes = checkClient(kase('data: hello\r\n\r\n', ['CLI-EOL-001']), records(eof));
    expect(outcomes.map((o) => o.requirement)).not.toContain('CLI-EOL-001');
  });

  it('the raw form is unchanged: a value record there is invalid', () => {
    const raw = { ...kase(stream), form: 'raw' as const };
    expect(failed(checkClient(raw, records({ value: { a: 1 } }, eof)))).toContain('CLI-OUT-001:invalid-record');
  });
});
