import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createSseReader, encodeSse, readSse, type SseFrame, type SseIssue } from './sse.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const datas = (body: string | Uint8Array) => readSse(body).frames.map((f) => f.data);

// The WHATWG interpretation cases (research/anchors-conformance.md §7), one test each.
describe('WHATWG event-stream interpretation', () => {
  test('LF, CR and CRLF line endings are all valid and may be mixed', () => {
    expect(datas('data: cr\r\rdata: lf\n\ndata: crlf\r\n\r\n')).toEqual(['cr', 'lf', 'crlf']);
  });

  test('a CR ending one chunk and an LF starting the next are one line end', () => {
    const frames: string[] = [];
    const reader = createSseReader({ onFrame: (f) => frames.push(f.data) });
    reader.feed('data: a\r');
    reader.feed('\n\r\n');
    reader.end();
    expect(frames).toEqual(['a']);
  });

  test('one leading BOM is stripped, a second one is not', () => {
    expect(datas(bytes('\uFEFFdata: one\n\n'))).toEqual(['one']);
    // The second BOM becomes part of the field name "\uFEFFdata", so the first event is lost.
    expect(datas(bytes('\uFEFF\uFEFFdata: one\n\ndata: two\n\n'))).toEqual(['two']);
  });

  test('exactly one space after the colon is stripped', () => {
    expect(datas('data:x\n\ndata: x\n\ndata:  x\n\n')).toEqual(['x', 'x', ' x']);
  });

  test('data lines are joined with LF and the trailing LF is removed', () => {
    expect(datas('data: a\ndata: b\n\n')).toEqual(['a\nb']);
  });

  test('an empty data field dispatches an empty string; two bare data lines give one LF', () => {
    expect(datas('data:\n\ndata\ndata\n\n')).toEqual(['', '\n']);
  });

  test('comment lines are ignored, even ones that look like fields', () => {
    const { frames, comments } = readSse(': hello\n:data: fail\ndata: 1\n\n');
    expect(frames.map((f) => f.data)).toEqual(['1']);
    expect(comments).toEqual(['hello', 'data: fail']);
  });

  test('an event with no data lines is not dispatched', () => {
    expect(datas('event: x\n\nid: 3\n\n')).toEqual([]);
  });

  test('an event unterminated at EOF is not dispatched and is reported as an issue', () => {
    const { frames, issues } = readSse('data: a\n\ndata: b');
    expect(frames.map((f) => f.data)).toEqual(['a']);
    expect(issues).toEqual([expect.objectContaining({ kind: 'unterminated-event', data: 'b' })]);
  });

  test('a final event with one line end but no blank line is not dispatched', () => {
    const { frames, issues } = readSse('data: a\n');
    expect(frames).toEqual([]);
    expect(issues.map((i) => i.kind)).toEqual(['unterminated-event']);
  });

  test('a complete stream reports no issue at EOF', () => {
    expect(readSse('data: a\n\n').issues).toEqual([]);
  });

  test('a NUL inside data is preserved', () => {
    expect(datas('data:\0\n\n')).toEqual(['\0']);
  });

  test('event and id fields are carried on the frame', () => {
    const [frame] = readSse('event: agent_status\nid: 7\ndata: {}\n\n').frames;
    expect(frame).toMatchObject({ event: 'agent_status', id: '7', data: '{}' });
  });

  test('invalid UTF-8 is decoded with replacement characters and reported once', () => {
    const body = new Uint8Array([...bytes('data: a'), 0xff, ...bytes('\n\ndata: b'), 0xfe, ...bytes('\n\n')]);
    const { frames, issues } = readSse(body);
    expect(frames.map((f) => f.data)).toEqual(['a\uFFFD', 'b\uFFFD']);
    expect(issues.filter((i) => i.kind === 'invalid-utf8')).toHaveLength(1);
  });

  test('a stream that ends inside a multi-byte character is reported', () => {
    const dash = bytes('—');
    const body = new Uint8Array([...bytes('data: a\n\n'), dash[0] ?? 0]);
    expect(readSse(body).issues.map((i) => i.kind)).toContain('invalid-utf8');
  });
});

describe('encodeSse', () => {
  test('splits data on every line-ending form', () => {
    expect(encodeSse({ data: 'a\r\nb\rc\nd' })).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
  });

  test('refuses an event name that would forge another field', () => {
    expect(() => encodeSse({ data: 'x', event: 'a\ndata: forged' })).toThrow(/must not contain CR or LF/);
  });

  test('round-trips through the reader with each line ending', () => {
    for (const eol of ['\n', '\r\n', '\r'] as const) {
      const body = encodeSse({ data: 'x\ny', event: 'e', id: '1' }, eol) + encodeSse({ data: '' }, eol);
      expect(readSse(body).frames.map((f) => [f.event, f.id, f.data])).toEqual([['e', '1', 'x\ny'], [undefined, undefined, '']]);
    }
  });
});

// Law: any chunking of a valid stream yields the same frames (and the same issues).
test('any byte split and any line ending of a stream yield the same frames', () => {
  const seed = 20261122;
  const payload = fc.string({ unit: fc.constantFrom('a', 'é', '—', '≈', '😀', '"', '{', '}', ' ', ':'), maxLength: 12 });
  const eol = fc.constantFrom('\n', '\r\n', '\r');
  const frame = fc.tuple(payload, eol).map(([d, e]) => ({ d, text: `data: ${d}${e}${e}` }));
  const body = fc.array(frame, { minLength: 1, maxLength: 5 });
  fc.assert(
    fc.property(body, fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
      const text = parts.map((p) => p.text).join('');
      const all = bytes(text);
      const points = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
      const frames: SseFrame[] = [];
      const issues: SseIssue[] = [];
      const reader = createSseReader({ onFrame: (f) => frames.push(f), onIssue: (i) => issues.push(i) });
      let start = 0;
      for (const p of [...points, all.length]) { reader.feed(all.subarray(start, p)); start = p; }
      reader.end();
      // Same frames as the LF-only, unsplit rendering of the same payloads.
      expect(frames.map((f) => f.data)).toEqual(parts.map((p) => p.d));
      expect(issues).toEqual([]);
    }),
    { seed, numRuns: 300, reporter: (run) => { if (run.failed) throw new Error(`${fc.defaultReportMessage(run)}\nreplay: npx vitest run core/sse.test.ts (seed ${seed})`); } },
  );
});

test('a stream ending with a CR-only blank line dispatches its last event', () => {
  const { frames, issues } = readSse('data: a\r\r');
  expect(frames.map((f) => f.data)).toEqual(['a']);
  expect(issues).toEqual([]);
});

test('an event closed by a CR at the end of one chunk is dispatched when the next chunk starts with no LF', () => {
  const frames: string[] = [];
  const issues: SseIssue[] = [];
  const reader = createSseReader({ onFrame: (f) => frames.push(f.data), onIssue: (i) => issues.push(i) });
  reader.feed('data: x\r\r');
  reader.feed('z');
  expect(frames).toEqual(['x']);
  reader.end();
  expect(frames).toEqual(['x']);
  // "z" is a field line of its own (an unknown field), never part of the event the CR closed.
  expect(issues.map((i) => i.kind)).not.toContain('unterminated-event');
});
