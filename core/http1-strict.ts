/**
 * The rules the tap's HTTP/1.1 reader (core/http1-reader.ts) reads requests by: those of Node's own
 * parser, llhttp with default options, where a request's framing is concerned. A request two servers
 * could frame two ways is how a second request is smuggled past a proxy, so the tap refuses exactly
 * what Node refuses (tap/http1-smuggling.test.ts sends the corpus to both). Each rule returns a
 * refusal `[HPE_* code, message]` or nothing; the reader turns one into its error.
 *
 * Node 24's llhttp, where Node 20's differs (the kit's scripts run on Node 24, package.json): an empty
 * Transfer-Encoding is refused; a trailing HTAB after Content-Length's digits and after a Connection
 * token is whitespace around the value (RFC 9110 §5.5), where Node 20 refused the one and ignored the other.
 */

/** A request's framing error: `[code, message]`, llhttp's code. */
export type Refusal = [string, string];

export const tokenName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A field value's bytes as llhttp takes them: no control character but HTAB (obs-text allowed). */
const badValueChar = /[\x00-\x08\x0a-\x1f\x7f]/;
/** A chunk-size line as llhttp takes it: bare hex, then `;name` or `;name=value` (token or quoted string), nothing else. */
export const strictChunkSize = /^([0-9A-Fa-f]+)((?:;[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:=(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+|"(?:[\t\x20\x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t\x20-\x7e\x80-\xff])*"))?)*)$/;

/** The chunk size of a strict size line's hex digits, or a refusal (over 64 bits as llhttp, or over what a JS number counts exactly). */
export function chunkSize(hex: string): number | Refusal {
  const digits = hex.replace(/^0+/, '');
  if (digits.length > 16) return ['HPE_INVALID_CHUNK_SIZE', 'Parse Error: Chunk size overflow'];
  const value = digits === '' ? 0 : Number.parseInt(digits, 16);
  if (value > Number.MAX_SAFE_INTEGER) return ['HPE_INVALID_CHUNK_SIZE', `Parse Error: a chunk size of 0x${digits} is over what the tap counts exactly`];
  return value;
}

/**
 * One header (or trailer) line of a request, as llhttp with default options reads it: no folding,
 * a token name right before the colon, a value without control characters. Undefined when fine.
 */
export function strictFieldRefusal(line: string, what: string): Refusal | undefined {
  if (line.startsWith(' ') || line.startsWith('\t')) return ['HPE_INVALID_HEADER_TOKEN', `Parse Error: ${what} ${JSON.stringify(line.slice(0, 80))} begins with whitespace (obs-fold, RFC 9112 §5.2): refused, as Node refuses it`];
  const colon = line.indexOf(':');
  if (colon <= 0 || !tokenName.test(line.slice(0, colon))) return ['HPE_INVALID_HEADER_TOKEN', `Parse Error: ${what} ${JSON.stringify(line.slice(0, 80))} is not "name: value"`];
  if (badValueChar.test(line.slice(colon + 1))) return ['HPE_INVALID_HEADER_TOKEN', `Parse Error: ${what} ${JSON.stringify(line.slice(0, 80))} has a control character in its value`];
  return undefined;
}

/**
 * A list field's tokens, lower case, as llhttp matches them: leading SP/HTAB skipped; a trailing HTAB kept
 * in Transfer-Encoding (so `chunked<HTAB>` is not `chunked`), dropped elsewhere (`close<HTAB>` closes).
 */
function listTokens(value: string, keepTab = false): string[] {
  return value.toLowerCase().split(',').map((t) => t.replace(/^[ \t]+/, '').replace(keepTab ? / +$/ : /[ \t]+$/, ''));
}

/** A request's Connection tokens and version: whether the connection closes after it (RFC 9112 §9.3). */
export function closesConnection(version: string, headers: ReadonlyArray<readonly [string, string]>): boolean {
  const tokens = headers.filter(([n]) => n.toLowerCase() === 'connection').flatMap(([, v]) => listTokens(v));
  if (tokens.includes('close')) return true;
  return version === '1.0' && !tokens.includes('keep-alive');
}

/**
 * A request's framing as llhttp with default options reads it, refusing what it refuses: a
 * Transfer-Encoding ends with `chunked` and has nothing after it (an empty field is refused);
 * Content-Length is one field of digits; never both (RFC 9112 §6.1: the request smuggling vector).
 */
export function requestFraming(headers: ReadonlyArray<readonly [string, string]>): 'none' | 'chunked' | number | Refusal {
  const refuse = (code: string, message: string): Refusal => [code, `Parse Error: ${message} (refused, as Node refuses it)`];
  let coded = false;
  let chunked = false;
  let length: number | undefined;
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'transfer-encoding') {
      if (value === '') return refuse('HPE_INVALID_TRANSFER_ENCODING', 'an empty Transfer-Encoding');
      if (chunked) return refuse('HPE_INVALID_TRANSFER_ENCODING', `a Transfer-Encoding coding after chunked (${JSON.stringify(value)})`);
      coded = true;
      const codings = listTokens(value, true);
      const at = codings.indexOf('chunked');
      if (at !== -1 && at !== codings.length - 1) return refuse('HPE_INVALID_TRANSFER_ENCODING', `Transfer-Encoding ${JSON.stringify(value)} has a coding after chunked`);
      chunked = at !== -1;
    } else if (lower === 'content-length') {
      if (length !== undefined) return refuse('HPE_UNEXPECTED_CONTENT_LENGTH', 'a second Content-Length');
      const digits = value.replace(/[ \t]+$/, '');
      if (!/^[0-9]+$/.test(digits)) return refuse('HPE_INVALID_CONTENT_LENGTH', `Content-Length ${JSON.stringify(value)} is not a number of bytes`);
      length = Number(digits);
      if (length > Number.MAX_SAFE_INTEGER) return refuse('HPE_INVALID_CONTENT_LENGTH', `Content-Length ${digits} overflows`);
    }
  }
  if (coded && length !== undefined) return refuse('HPE_INVALID_TRANSFER_ENCODING', 'Transfer-Encoding together with Content-Length');
  if (coded && !chunked) return refuse('HPE_INVALID_TRANSFER_ENCODING', 'a request\'s Transfer-Encoding must end with chunked');
  if (chunked) return 'chunked';
  return length ?? 'none';
}

/** A request's chunk-size or trailer line (`raw` with its CR, `line` without), as llhttp reads it. */
export function strictChunkLine(raw: string, line: string, trailer: boolean): Refusal | undefined {
  const refuse = (code: string, message: string): Refusal => [code, `Parse Error: ${message} (refused, as Node refuses it)`];
  if (!raw.endsWith('\r') || line.includes('\r')) return refuse('HPE_CR_EXPECTED', `${trailer ? 'a trailer line' : 'a chunk-size line'} ${JSON.stringify(line.slice(0, 40))} ends with a bare LF or holds a bare CR`);
  if (trailer) {
    if (line === '') return undefined;
    const refusal = strictFieldRefusal(line, 'trailer line');
    if (refusal) return refusal;
    const name = line.slice(0, line.indexOf(':')).toLowerCase();
    if (name === 'content-length' || name === 'transfer-encoding') return refuse('HPE_INVALID_CONTENT_LENGTH', `a ${name} trailer on a chunked request`);
    return undefined;
  }
  if (!strictChunkSize.test(line)) return refuse('HPE_INVALID_CHUNK_SIZE', `${JSON.stringify(line.slice(0, 40))} is not a chunk size (bare hex digits, then ;name=value extensions, no whitespace)`);
  return undefined;
}
