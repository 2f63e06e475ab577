/**
 * `createHttp1Reader(config)`: an incremental HTTP/1.1 message reader (RFC 9112) for the tap's
 * byte-level shell (tap/server.ts). The shell forwards the bytes it reads unchanged; this reader
 * only tells it where each message's head ends and what each body carries, decoded from its
 * framing, so the core judges the same body a client's HTTP library would hand its application.
 *
 * Requests are read as strictly as Node's own parser (llhttp, default options): a request whose
 * framing two servers could read two ways (Content-Length with Transfer-Encoding, a coding after
 * `chunked`, two Content-Lengths, obs-fold, a bare LF or CR, a chunk size that is not bare hex) is an
 * error. A fault of the head is an error before the head is handed on, so the shell neither forwards
 * the request nor opens a run for it; a fault of the body stops the reading there, before the bad
 * bytes are handed on; either way a body smuggled inside it is never read as a second request. After a request that closes the
 * connection (`Connection: close`, HTTP/1.0 without keep-alive) nothing more is read, as Node reads
 * nothing more. The rules are in core/http1-strict.ts; tap/http1-smuggling.test.ts holds the corpus,
 * side by side with node:http.
 * Responses are read leniently where the RFC lets a recipient be (a bare LF ends a line, RFC 9112
 * §2.2): they are forwarded as they came, and the reader only tells the judges what they carry.
 * Errors carry llhttp's `HPE_*` codes, so tap/upstream-failure.ts reads them as it reads Node's.
 */

import { chunkSize, closesConnection, requestFraming, strictChunkLine, strictChunkSize, strictFieldRefusal, tokenName } from './http1-strict.ts';

export { closesConnection };

export type Http1Head = {
  /** `GET` (requests only). */
  method: string;
  /** The request target as sent (requests only). */
  target: string;
  /** The status code (responses only). */
  status: number;
  /** `1.1` or `1.0`. */
  version: string;
  /** The header fields in order, names as spelled. */
  headers: Array<[string, string]>;
  /** The head's bytes, start line to the blank line included. */
  bytes: Buffer;
};

export type Http1ReaderConfig = {
  kind: 'request' | 'response';
  /** Responses: true when this response has no body whatever its headers say (a HEAD request's). */
  bodyless?: () => boolean;
  onHead: (head: Http1Head) => void;
  onBody: (bytes: Buffer) => void;
  /** The body's bytes as they came, framing included (chunk sizes, CRLFs, trailers), in order, for a shell that forwards them. */
  onBodyRaw?: (bytes: Buffer) => void;
  onMessageEnd: () => void;
  /** The bytes are not HTTP/1.1 from here on; the reader reads nothing more. */
  onError: (code: string, message: string) => void;
  /** A head longer than this is an error (Node's default is 16 KiB). */
  maxHeadBytes?: number;
};

export type Http1Reader = {
  feed: (chunk: Buffer) => void;
  /** The connection ended: true when that completed a message (a body delimited by the close). */
  end: () => boolean;
  /** Between messages (nothing of the next one read yet). */
  idle: () => boolean;
  /** Reading a head (bytes of one may be buffered). */
  inHead: () => boolean;
  /** From now on every byte is a tunnel's (after 101 Switching Protocols, or a CONNECT's 2xx): nothing is parsed. */
  tunnel: () => void;
};

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailers' | 'until-close' | 'tunnel' | 'closed' | 'failed';

const httpName = Buffer.from('HTTP/');
/** The bytes so far can begin a status line. */
const httpPrefix = (buf: Buffer) => buf.compare(httpName, 0, Math.min(5, buf.length), 0, Math.min(5, buf.length)) === 0;
const CR = 13;
/** The value of an ASCII hex digit, or -1. */
function hexValue(byte: number): number {
  if (byte >= 48 && byte <= 57) return byte - 48;
  if (byte >= 97 && byte <= 102) return byte - 87;
  if (byte >= 65 && byte <= 70) return byte - 55;
  return -1;
}
const LF = 10;
const statusLine = /^HTTP\/(1\.[01]) ([0-9]{3})(?: [^\r\n]*)?$/;
const requestLine = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([\x21-\x7e]+) HTTP\/(1\.[01])$/;
export function createHttp1Reader(config: Http1ReaderConfig): Http1Reader {
  const maxHead = config.maxHeadBytes ?? 16 * 1024;
  // Requests as strictly as Node's parser: their framing decides what the upstream and the tap read.
  const strict = config.kind === 'request';
  let state: State = 'head';
  let closeAfter = false; // the request being read closes the connection after it
  let held: Buffer[] = [];
  let heldBytes = 0;
  let remaining = 0;
  let started = false; // a byte of the current message was read
  // Where the fed chunk's current run of body bytes began (-1: not in a body), for onBodyRaw.
  let rawStart = -1;
  let fed: Buffer = Buffer.alloc(0);

  function fail(code: string, message: string): void {
    state = 'failed';
    held = [];
    config.onError(code, message);
  }

  function finishMessage(at = 0): void {
    if (rawStart !== -1 && at > rawStart) config.onBodyRaw?.(fed.subarray(rawStart, at));
    rawStart = -1;
    state = closeAfter ? 'closed' : 'head';
    started = false;
    config.onMessageEnd();
  }

  /** Where the head ends in `buf` (the index after its blank line), or -1. */
  function headEnd(buf: Buffer): number {
    // RFC 9112 §2.2: a recipient may take a bare LF as a line terminator.
    for (let i = buf.indexOf(LF); i !== -1; i = buf.indexOf(LF, i + 1)) {
      if (buf[i + 1] === LF) return i + 2;
      if (buf[i + 1] === CR && buf[i + 2] === LF) return i + 3;
    }
    return -1;
  }

  function parseHead(bytes: Buffer): void {
    const text = bytes.toString('latin1');
    let lines: string[];
    if (strict) {
      // llhttp wants CRLF after every line: a bare LF or CR is where two parsers split lines apart.
      lines = text.slice(0, -4).split('\r\n');
      const bare = text.endsWith('\r\n\r\n') ? lines.findIndex((l) => l.includes('\r') || l.includes('\n')) : Math.max(0, lines.length - 1);
      if (bare !== -1) return fail('HPE_CR_EXPECTED', `Parse Error: line ${bare + 1} of the request head ends with a bare LF or holds a bare CR; a request's lines end with CRLF (refused, as Node refuses it)`);
    } else {
      lines = text.split(/\r?\n/);
      lines.length -= 2; // the blank line and what follows it (nothing)
    }
    const first = lines[0] ?? '';
    const head: Http1Head = { method: '', target: '', status: 0, version: '', headers: [], bytes };
    if (config.kind === 'response') {
      const m = statusLine.exec(first);
      if (!m) return fail(first.startsWith('HTTP/') ? 'HPE_INVALID_STATUS' : 'HPE_INVALID_CONSTANT', `Parse Error: expected an HTTP/1.x status line, got ${JSON.stringify(first.slice(0, 80))}`);
      head.version = m[1] as string;
      head.status = Number(m[2]);
    } else {
      const m = requestLine.exec(first);
      if (!m) return fail('HPE_INVALID_METHOD', `Parse Error: expected a request line (METHOD target HTTP/1.1), got ${JSON.stringify(first.slice(0, 80))}`);
      head.method = m[1] as string;
      head.target = m[2] as string;
      head.version = m[3] as string;
    }
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const refusal = strict ? strictFieldRefusal(line, `header line ${i}`) : undefined;
      if (refusal) return fail(...refusal);
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      // RFC 9112 §5.1: no whitespace between the name and the colon; §5.2: no line folding.
      if (!tokenName.test(name)) return fail('HPE_INVALID_HEADER_TOKEN', `Parse Error: header line ${i} is not "name: value": ${JSON.stringify(line.slice(0, 80))}`);
      // OWS is SP and HTAB (RFC 9110 §5.6.3); llhttp strips a trailing SP but keeps a trailing HTAB
      // in the value (`Content-Length: 2<HTAB>` is refused, `Connection: close<HTAB>` is no close).
      const value = line.slice(colon + 1).replace(/^[ \t]+/, '');
      head.headers.push([name, strict ? value.replace(/ +$/, '') : value.replace(/[ \t]+$/, '')]);
    }
    const framing = bodyFraming(head);
    if (framing === undefined) return;
    closeAfter = strict && closesConnection(head.version, head.headers);
    config.onHead(head);
    if (state === 'failed' || state === 'tunnel') return;
    if (framing === 'none') { finishMessage(); return; }
    if (framing === 'chunked') { state = 'chunk-size'; return; }
    if (framing === 'until-close') { state = 'until-close'; return; }
    remaining = framing;
    state = remaining === 0 ? 'head' : 'length';
    if (remaining === 0) finishMessage();
  }

  /** RFC 9112 §6.3, in its order. */
  function bodyFraming(head: Http1Head): 'none' | 'chunked' | 'until-close' | number | undefined {
    if (config.kind === 'response') {
      if ((head.status >= 100 && head.status < 200) || head.status === 204 || head.status === 304 || config.bodyless?.() === true) return 'none';
    }
    if (strict) {
      const framing = requestFraming(head.headers);
      if (Array.isArray(framing)) { fail(...framing); return undefined; }
      return framing;
    }
    let chunked = false;
    let length: number | undefined;
    for (const [name, value] of head.headers) {
      const lower = name.toLowerCase();
      if (lower === 'transfer-encoding') {
        const codings = value.toLowerCase().split(',').map((c) => c.trim());
        chunked = codings.at(-1) === 'chunked';
        if (!chunked && config.kind === 'request') { fail('HPE_INVALID_TRANSFER_ENCODING', 'Parse Error: a request\'s Transfer-Encoding must end with chunked'); return undefined; }
      } else if (lower === 'content-length') {
        if (!/^[0-9]+$/.test(value) || (length !== undefined && Number(value) !== length)) { fail('HPE_INVALID_CONTENT_LENGTH', `Parse Error: Content-Length ${JSON.stringify(value)} is not one length`); return undefined; }
        length = Number(value);
      }
    }
    if (chunked) return 'chunked';
    if (length !== undefined) return length;
    return config.kind === 'response' ? 'until-close' : 'none';
  }

  const inBody = () => state !== 'head' && state !== 'failed' && state !== 'tunnel' && state !== 'closed';

  function feed(chunk: Buffer): void {
    fed = chunk;
    rawStart = inBody() ? 0 : -1;
    step(chunk);
    if (rawStart !== -1 && state !== 'failed' && chunk.length > rawStart) config.onBodyRaw?.(rawStart === 0 ? chunk : chunk.subarray(rawStart));
    rawStart = -1;
  }

  function step(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      switch (state) {
        case 'failed':
        case 'tunnel':
        case 'closed':
          return;
        case 'head': {
          // RFC 9112 §2.2: a server ignores empty lines received before a request-line.
          if (!started && config.kind === 'request' && (chunk[at] === CR || chunk[at] === LF)) { at++; break; }
          started = true;
          const buf = heldBytes === 0 ? chunk.subarray(at) : Buffer.concat([...held, chunk.subarray(at)]);
          if (config.kind === 'response' && !httpPrefix(buf)) return fail('HPE_INVALID_CONSTANT', `Parse Error: expected HTTP/, got ${JSON.stringify(buf.toString('latin1', 0, Math.min(buf.length, 40)))}`);
          const end = headEnd(buf);
          if (end === -1) {
            if (buf.length > maxHead) return fail('HPE_HEADER_OVERFLOW', `Parse Error: the head is over ${maxHead} bytes without its blank line`);
            held = [Buffer.from(buf)];
            heldBytes = buf.length;
            return;
          }
          if (end > maxHead) return fail('HPE_HEADER_OVERFLOW', `Parse Error: the head is over ${maxHead} bytes`);
          const usedOfChunk = end - heldBytes;
          held = [];
          heldBytes = 0;
          parseHead(Buffer.from(buf.subarray(0, end)));
          at += usedOfChunk;
          if (inBody()) rawStart = at;
          break;
        }
        case 'length':
        case 'chunk-data': {
          const take = Math.min(remaining, chunk.length - at);
          config.onBody(chunk.subarray(at, at + take));
          at += take;
          remaining -= take;
          // The body ends with its length; a chunk's data is followed by CRLF (`remaining` then counts the CR seen).
          if (remaining === 0) { if (state === 'length') finishMessage(at); else state = 'chunk-crlf'; }
          break;
        }
        case 'until-close':
          config.onBody(at === 0 ? chunk : chunk.subarray(at));
          return;
        case 'chunk-size':
        case 'trailers': {
          // The usual size line, bare hex digits and CRLF whole in this chunk, read off the bytes.
          if (state === 'chunk-size' && heldBytes === 0) {
            let value = 0;
            let i = at;
            for (; i < chunk.length && i - at < 12; i++) {
              const digit = hexValue(chunk[i] as number);
              if (digit === -1) break;
              value = value * 16 + digit;
            }
            if (i > at && chunk[i] === CR && chunk[i + 1] === LF) {
              at = i + 2;
              remaining = value;
              state = value === 0 ? 'trailers' : 'chunk-data';
              break;
            }
          }
          // A size line with extensions or cut by the chunk's end, or a trailer line.
          const buf = heldBytes === 0 ? chunk.subarray(at) : Buffer.concat([...held, chunk.subarray(at)]);
          const lf = buf.indexOf(LF);
          if (lf === -1) {
            if (buf.length > 4096) return fail('HPE_INVALID_CHUNK_SIZE', 'Parse Error: a chunk-size or trailer line is over 4096 bytes');
            held = [Buffer.from(buf)];
            heldBytes = buf.length;
            return;
          }
          const usedOfChunk = lf + 1 - heldBytes;
          const raw = buf.toString('latin1', 0, lf);
          const line = raw.replace(/\r$/, '');
          held = [];
          heldBytes = 0;
          at += usedOfChunk;
          if (strict) {
            const refusal = strictChunkLine(raw, line, state === 'trailers');
            if (refusal) return fail(...refusal);
            if (state === 'trailers') { if (line === '') finishMessage(at); break; }
            const size = chunkSize(strictChunkSize.exec(line)?.[1] as string);
            if (typeof size !== 'number') return fail(...size);
            remaining = size;
            state = remaining === 0 ? 'trailers' : 'chunk-data';
            break;
          }
          if (state === 'trailers') {
            if (line === '') finishMessage(at);
            break;
          }
          const size = /^([0-9A-Fa-f]{1,12})[ \t]*(;.*)?$/.exec(line);
          if (!size) return fail('HPE_INVALID_CHUNK_SIZE', `Parse Error: ${JSON.stringify(line.slice(0, 40))} is not a chunk size (hex digits, then ;extensions)`);
          remaining = Number.parseInt(size[1] as string, 16);
          state = remaining === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'chunk-crlf': {
          // The CRLF after a chunk's data (a bare LF accepted, as for lines).
          const byte = chunk[at];
          if (byte === CR && remaining === 0) { remaining = 1; at++; break; }
          if (strict && byte === LF && remaining === 0) return fail('HPE_CR_EXPECTED', 'Parse Error: a chunk\'s data is followed by a bare LF, not CRLF (refused, as Node refuses it)');
          if (byte === LF) { remaining = 0; state = 'chunk-size'; at++; break; }
          return fail('HPE_STRICT', 'Parse Error: a chunk\'s data is not followed by CRLF (the chunk is longer than its size says)');
        }
      }
    }
  }

  return {
    feed,
    end: () => {
      if (state === 'until-close') { finishMessage(); return true; }
      return false;
    },
    idle: () => state === 'head' && !started,
    inHead: () => state === 'head',
    tunnel: () => { state = 'tunnel'; held = []; },
  };
}
