/** A word for `sh -c`: kept as it is when it is plainly safe, single-quoted otherwise. */
export const shellQuote = (s: string): string => (/^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
