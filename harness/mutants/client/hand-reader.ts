/**
 * A hand-written SSE reader, as teams write them for a POST client, with one defect switched on
 * per client mutant. With no defect it reads like core/sse.ts (harness/mutants/client/suite.ts
 * proves each defect fails exactly its requirement, so every other line of it must be right).
 * `naiveSplit` is seed 004's own advice: "split by `\n\n`, extract `data:` lines".
 */
import type { SseReader, SseReaderConfig } from '../../../core/sse.ts';

export type ReaderDefect =
  | 'naiveSplit' | 'noStreamDecode' | 'flushAtEof' | 'keepSpace' | 'ignoreCr' | 'dropEvent' | 'dropId'
  | 'unicodeLineBreaks' | 'blankDispatchesEmpty' | 'keepBom' | 'dropInvalid' | 'joinWithoutLf' | 'lineLimit' | 'noCrHold'
  | 'retryDispatches' | 'stripEveryBom' | 'commentResetsEvent';

/** Behaviour the rules allow either way (not defects): `lastEventId` keeps an `id:` until the next one, as WHATWG's buffer does. */
export type ReaderVariant = { lastEventId?: boolean };

/** The line limit of the `lineLimit` defect: a longer line is dropped, as buffer-capped parsers do. */
const maxLine = 1024 * 1024;

export function createHandReader(config: SseReaderConfig, defect?: ReaderDefect, variant: ReaderVariant = {}): SseReader {
  let decoder = new TextDecoder('utf-8', { ignoreBOM: defect === 'keepBom' });
  let buffer = '';
  // Text with no line end in it, not yet appended to `buffer`: a huge event arrives in thousands of
  // pieces, and searching the whole buffer again for each made this reader quadratic (5 s and more
  // for framing_huge_event's 3 MB on a loaded machine: a clock no mutant's defect is about).
  let pending: string[] = [];
  // A line's end (CRLF as one), and whether a text holds any: chosen once per reader, not per chunk.
  const ends = defect === 'ignoreCr' ? /\n/ : defect === 'unicodeLineBreaks' ? /\r\n|[\r\n\u2028\u2029\u0085\v\f\u001c-\u001e]/ : /\r\n|\r|\n/;
  const endsIn = defect === 'naiveSplit' ? /\n/ : ends;
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  let lastId: string | undefined;
  let retried = false;
  let offset = 0;
  let started = false;

  function dispatch(): void {
    if (data.length > 0 || defect === 'blankDispatchesEmpty' || (defect === 'retryDispatches' && retried)) {
      config.onFrame({ data: data.join(defect === 'joinWithoutLf' ? '' : '\n'), event, id: variant.lastEventId ? (id ?? lastId) : id, offset });
    }
    if (id !== undefined) lastId = id;
    data = [];
    event = undefined;
    id = undefined;
    retried = false;
  }

  function line(text: string): void {
    if (defect === 'lineLimit' && text.length > maxLine) return;
    if (text === '') { dispatch(); return; }
    if (text.startsWith(':')) {
      // As a reader that takes a comment for a keep-alive block between events: the event so far is dropped.
      if (defect === 'commentResetsEvent') { data = []; event = undefined; id = undefined; retried = false; }
      return;
    }
    const colon = text.indexOf(':');
    const name = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ') && defect !== 'keepSpace') value = value.slice(1);
    if (name === 'data') data.push(value);
    else if (name === 'event' && defect !== 'dropEvent') event = value || undefined;
    else if (name === 'id' && defect !== 'dropId' && !value.includes('\0')) id = value;
    else if (name === 'retry') retried = true;
  }

  function naive(atEof: boolean): void {
    // Seed 004's advice, literally: blocks between "\n\n", data lines only.
    let at: number;
    while ((at = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      const lines = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''));
      if (lines.length > 0) config.onFrame({ data: lines.join('\n'), offset });
    }
    if (atEof) buffer = '';
  }

  function lines(atEof: boolean): void {
    if (defect === 'naiveSplit') { naive(atEof); return; }
    for (;;) {
      const m = ends.exec(buffer);
      if (!m) break;
      // A CR at the end of the text so far may be the first half of a CRLF: wait for the next chunk.
      if (m[0] === '\r' && m.index === buffer.length - 1 && !atEof && defect !== 'noCrHold') break;
      let skip = m[0].length;
      if (defect === 'noCrHold' && m[0] === '\r' && m.index === buffer.length - 1) skip = 1;
      line(buffer.slice(0, m.index));
      buffer = buffer.slice(m.index + skip);
    }
    if (atEof) {
      buffer = '';
      if (defect === 'flushAtEof' && data.length > 0) dispatch();
    }
  }

  function feedText(text: string): void {
    // The decoder strips one BOM; this defect strips every leading one, as `text.replace(/^\uFEFF+/, '')` does.
    if (defect === 'stripEveryBom' && !started) text = text.replace(/^\uFEFF+/, '');
    if (text !== '') started = true;
    const added = defect === 'dropInvalid' ? text.replace(/\uFFFD/g, '') : text;
    // No line end in it, and none held back before it (a CR, a newline of the naive split): nothing to read yet.
    if (!endsIn.test(added) && !endsIn.test(buffer.slice(-1))) { pending.push(added); return; }
    buffer += pending.join('') + added;
    pending = [];
    lines(false);
  }

  return {
    feed(chunk) {
      offset += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
      feedText(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: defect !== 'noStreamDecode' }));
    },
    end() {
      buffer += pending.join('') + decoder.decode();
      pending = [];
      lines(true);
    },
    reset() {
      decoder = new TextDecoder('utf-8', { ignoreBOM: defect === 'keepBom' });
      buffer = '';
      pending = [];
      data = [];
      event = undefined;
      id = undefined;
      lastId = undefined;
      retried = false;
      offset = 0;
      started = false;
    },
  };
}
