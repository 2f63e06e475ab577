/**
 * Text that arrives in pieces (a child's stdout, decoded) split into LF-terminated lines: each
 * complete line, without its LF, goes to `onLine`; what follows the last LF waits for more.
 *
 * Only the text that arrived since is searched for the LF: a line of megabytes arriving in 64 KB
 * pieces was searched from its start at every piece, and the pieces joined so far copied each time
 * (a 6 MB line that is not JSON, test/hostile/impls/transformer.mjs `multi-megabyte-line`).
 */
export type LineSplitter = {
  push: (text: string) => void;
  /** The text after the last LF (an unterminated line), '' when none. */
  rest: () => string;
  /** Its length in UTF-16 code units, without joining it (a bound on a line under way). */
  restLength: () => number;
};

export function createLineSplitter(onLine: (line: string) => void): LineSplitter {
  // The start of the line under way, kept as the pieces it arrived in until its LF comes.
  let pieces: string[] = [];
  let restLength = 0;
  return {
    push(text) {
      let from = 0;
      let nl: number;
      while ((nl = text.indexOf('\n', from)) >= 0) {
        const tail = text.slice(from, nl);
        const line = pieces.length === 0 ? tail : pieces.join('') + tail;
        pieces = [];
        restLength = 0;
        from = nl + 1;
        onLine(line);
      }
      if (from < text.length) {
        pieces.push(from === 0 ? text : text.slice(from));
        restLength += text.length - from;
      }
    },
    rest: () => {
      if (pieces.length > 1) pieces = [pieces.join('')];
      return pieces[0] ?? '';
    },
    restLength: () => restLength,
  };
}
