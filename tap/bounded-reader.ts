/**
 * The SSE reader of core/sse.ts with a bound on what it may hold. WHATWG parsing keeps an
 * unfinished event in memory until its blank line; an upstream that writes a 50 MB event (or never
 * ends one) would make the tap hold it all. This wrapper counts the bytes of the current event as
 * they pass and, past `maxFrameBytes`, resets the reader (dropping what it held) and skips to the
 * next blank line; the bytes were already forwarded, so only the judging of that one event is lost,
 * and `onOversize` says so. It finds line ends only (CR, LF, CRLF: the WHATWG rule); all parsing
 * stays in core/sse.ts.
 *
 * It also reports two byte-level facts the parser hides: a leading byte order mark and the first
 * CR line end (ADK servers write neither: adk-wire-format §3).
 */
import { createSseReader, type SseReaderConfig } from '../core/sse.ts';

export type BoundedReaderConfig = SseReaderConfig & {
  maxFrameBytes: number;
  /** An event grew past the bound at stream offset `offset`; it is skipped up to its blank line. */
  onOversize: (offset: number) => void;
  /** The skipped event ended at `offset` after `bytes` bytes (undefined when the stream ended first). */
  onOversizeEnd?: (offset: number, bytes: number) => void;
  onByteFact?: (fact: 'bom' | 'cr', offset: number) => void;
};

export type BoundedReader = { feed: (chunk: Uint8Array) => void; end: () => void };

const LF = 0x0a;
const CR = 0x0d;

export function createBoundedReader(config: BoundedReaderConfig): BoundedReader {
  const reader = createSseReader(config);
  let offset = 0;
  let lineBytes = 0;
  let eventBytes = 0;
  let lastWasCr = false;
  let skipping = false;
  let skippedBytes = 0;
  let sawCr = false;
  let head: number[] = [];

  function feed(chunk: Uint8Array): void {
    if (offset < 3) {
      for (let i = 0; i < chunk.length && head.length < 3; i++) head.push(chunk[i] ?? 0);
      if (head.length === 3) {
        if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) config.onByteFact?.('bom', 0);
        head = [4];
      }
    }
    // The usual chunk: LF line ends only, not inside a skipped event, and too short to cross the
    // bound. Only the line and event lengths at its end matter, and the LFs are found natively
    // (the byte loop below gives the same state; it was ~12% of the tap's CPU under load).
    if (!skipping && !lastWasCr && eventBytes + chunk.length <= config.maxFrameBytes && chunk.indexOf(CR) < 0) {
      let at = 0;
      for (let lf = chunk.indexOf(LF); lf >= 0; lf = chunk.indexOf(LF, at)) {
        const length = lf - at;
        if (lineBytes === 0 && length === 0) eventBytes = 0;
        else { lineBytes += length; eventBytes += length; }
        lineBytes = 0;
        at = lf + 1;
      }
      lineBytes += chunk.length - at;
      eventBytes += chunk.length - at;
      if (chunk.length > 0) reader.feed(chunk);
      offset += chunk.length;
      return;
    }
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === LF && lastWasCr) { lastWasCr = false; continue; }
      lastWasCr = b === CR;
      if (b === CR && !sawCr) { sawCr = true; config.onByteFact?.('cr', offset + i); }
      if (b === LF || b === CR) {
        if (lineBytes === 0) {
          // A blank line: the event boundary. A skipped event ends here; reading resumes after it.
          if (skipping) {
            skipping = false;
            config.onOversizeEnd?.(offset + i + 1, skippedBytes + i + 1 - from);
            from = i + 1;
            // A CRLF blank line: its LF belongs to the skipped part too.
            if (b === CR && chunk[i + 1] === LF) { from = i + 2; }
          }
          eventBytes = 0;
        }
        lineBytes = 0;
        continue;
      }
      lineBytes++;
      eventBytes++;
      if (!skipping && eventBytes > config.maxFrameBytes) {
        if (i > from) reader.feed(chunk.subarray(from, i));
        reader.reset();
        skipping = true;
        skippedBytes = 0;
        config.onOversize(offset + i);
        from = i;
      }
    }
    if (skipping) skippedBytes += chunk.length - from;
    else if (from < chunk.length) reader.feed(from === 0 ? chunk : chunk.subarray(from));
    offset += chunk.length;
  }

  function end(): void {
    if (skipping) config.onOversizeEnd?.(offset, skippedBytes);
    else reader.end();
  }

  return { feed, end };
}
