/**
 * Where the bytes passed through so far left the client's SSE parser, so that an error frame the
 * gateway appends is always its own event. The passthrough never holds bytes back (seed 004:
 * "Zero (raw passthrough from ADK service)"), so when an upstream is cut mid-event the client has
 * already received a partial line; this tracker says which line ends close it.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
const LF = 0x0a;
const CR = 0x0d;

export type FrameBoundaryTracker = {
  feed: (chunk: Uint8Array) => void;
  /** The bytes that end any unfinished line and event, so the next byte starts a fresh event. */
  closingBytes: () => string;
  reset: () => void;
};

export function createFrameBoundaryTracker(): FrameBoundaryTracker {
  // The current line has at least one character.
  let inLine = false;
  // A non-blank line ended since the last blank line: the parser may hold data for an event.
  let pending = false;
  // The last byte was a CR, so a following LF belongs to the same line end.
  let lastCr = false;

  // "Lines must be separated by either a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF)
  // character pair, a single U+000A LINE FEED (LF) character, or a single U+000D CARRIAGE RETURN (CR) character."
  function lineEnd(): void {
    // "If the line is empty (a blank line): Dispatch the event", otherwise the line was a field or comment.
    pending = inLine ? true : false;
    inLine = false;
  }

  function feed(chunk: Uint8Array): void {
    // Only the bytes after the chunk's last content byte decide the state: a content byte sets
    // inLine and clears lastCr, and the first line end after it overwrites pending. So the scan
    // starts there (a tail of "\n\n" for a whole event) instead of at every byte of the chunk.
    let last = chunk.length - 1;
    while (last >= 0 && (chunk[last] === LF || chunk[last] === CR)) last--;
    let i = 0;
    if (last >= 0) { inLine = true; lastCr = false; i = last + 1; }
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === LF) {
        if (lastCr) { lastCr = false; continue; }
        lineEnd();
      } else if (b === CR) {
        lineEnd();
        lastCr = true;
      } else {
        lastCr = false;
        inLine = true;
      }
    }
  }

  function closingBytes(): string {
    // An LF right after a trailing CR is swallowed as the second half of a CRLF, so it goes first
    // and the line ends that follow count in full.
    let out = lastCr ? '\n' : '';
    if (inLine) out += '\n\n';
    else if (pending) out += '\n';
    return out;
  }

  function reset(): void {
    inLine = false;
    pending = false;
    lastCr = false;
  }

  return { feed, closingBytes, reset };
}
