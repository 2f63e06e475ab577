/**
 * core/http1-reader.ts, the HTTP/1.1 reader behind the tap's byte-level shell.
 *
 * Law: any sequence of responses (Content-Length, chunked with extensions and trailers, a body up
 * to the close, bodyless statuses, interim 1xx), split at any points, gives the same heads and
 * bodies as the messages were built with; and head bytes + raw body bytes are the input, byte
 * for byte (what the shell forwards is what came).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLaw, describeParams, lawParams, lawTimeout } from '../test/laws/law-runner.ts';
import { cutAt } from '../test/laws/pipeline.ts';
import { createHttp1Reader, type Http1ReaderConfig } from './http1-reader.ts';

const file = 'core/http1-reader.test.ts';
const params = lawParams(500);
const timeout = lawTimeout(params, 2);

type Seen = { heads: Array<{ status: number; method: string; target: string; headers: Array<[string, string]> }>; bodies: string[]; raw: Buffer[]; ends: number; errors: string[] };

function reader(kind: 'request' | 'response', extra: Partial<Http1ReaderConfig> = {}) {
  const seen: Seen = { heads: [], bodies: [], raw: [], ends: 0, errors: [] };
  let body: Buffer[] = [];
  const r = createHttp1Reader({
    kind,
    onHead: (h) => { seen.heads.push({ status: h.status, method: h.method, target: h.target, headers: h.headers }); seen.raw.push(h.bytes); },
    onBody: (b) => { body.push(Buffer.from(b)); },
    onBodyRaw: (b) => { seen.raw.push(Buffer.from(b)); },
    onMessageEnd: () => { seen.ends++; seen.bodies.push(Buffer.concat(body).toString('latin1')); body = []; },
    onError: (code, message) => { seen.errors.push(`${code}: ${message}`); },
    ...extra,
  });
  return { r, seen };
}

/** Pieces of `bytes` cut at the offsets (test/laws/pipeline.ts), as the Buffers a socket hands the reader. */
const cut = (bytes: Buffer, offsets: readonly number[]): Buffer[] => cutAt(bytes, offsets).map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength));

type Message = { bytes: string; status: number; body: string; interim: boolean; last: boolean };

const bodyText = fc.string({ unit: 'binary-ascii', maxLength: 40 });
const lineEnd = fc.constantFrom('\r\n', '\n');
const chunkedBody = fc.tuple(fc.array(bodyText.filter((s) => s.length > 0), { maxLength: 4 }), fc.constantFrom('', ';ext=1', ' ;x'), fc.boolean(), fc.constantFrom('0', '000'))
  .map(([pieces, ext, trailer, zero]) => ({ body: pieces.join(''), wire: `${pieces.map((p) => `${p.length.toString(16)}${ext}\r\n${p}\r\n`).join('')}${zero}\r\n${trailer ? 'X-Trailer: 1\r\n' : ''}\r\n` }));

const message: fc.Arbitrary<Message> = fc.oneof(
  fc.tuple(bodyText, lineEnd).map(([body, eol]) => ({ bytes: `HTTP/1.1 200 OK${eol}Content-Type: text/event-stream${eol}Content-Length: ${body.length}${eol}${eol}${body}`, status: 200, body, interim: false, last: false })),
  chunkedBody.map(({ body, wire }) => ({ bytes: `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${wire}`, status: 200, body, interim: false, last: false })),
  fc.constant({ bytes: 'HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n', status: 204, body: '', interim: false, last: false }),
  fc.constant({ bytes: 'HTTP/1.1 100 Continue\r\n\r\n', status: 100, body: '', interim: true, last: false }),
  bodyText.map((body) => ({ bytes: `HTTP/1.0 200 OK\r\nConnection: close\r\n\r\n${body}`, status: 200, body, interim: false, last: true })),
);
const messages = fc.array(message, { minLength: 1, maxLength: 4 }).map((list) => {
  const i = list.findIndex((m) => m.last);
  return i === -1 ? list : list.slice(0, i + 1);
});

describe(`the tap's HTTP/1.1 reader (${describeParams(params)})`, () => {
  it('responses split at any points give their heads and bodies, and head plus raw body bytes are the input', async () => {
    await checkLaw(file, 'responses split at any points give their heads and bodies, and head plus raw body bytes are the input', fc.property(messages, fc.array(fc.nat(), { maxLength: 12 }), (list, offsets) => {
      const input = Buffer.from(list.map((m) => m.bytes).join(''), 'latin1');
      const { r, seen } = reader('response');
      for (const piece of cut(input, offsets)) r.feed(piece);
      r.end();
      expect(seen.errors).toEqual([]);
      expect(seen.heads.map((h) => h.status)).toEqual(list.map((m) => m.status));
      expect(seen.bodies).toEqual(list.map((m) => m.body));
      expect(Buffer.concat(seen.raw).toString('latin1')).toBe(input.toString('latin1'));
    }), params);
  }, timeout);

  it('pipelined requests in one read give each head, target and body, and their bytes are the input', () => {
    const input = Buffer.from('POST /run_sse HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}GET /list-apps HTTP/1.1\r\nHost: a\r\n\r\nPOST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n');
    const { r, seen } = reader('request');
    r.feed(input);
    expect(seen.heads.map((h) => `${h.method} ${h.target}`)).toEqual(['POST /run_sse', 'GET /list-apps', 'POST /x']);
    expect(seen.bodies).toEqual(['{}', '', 'abc']);
    expect(Buffer.concat(seen.raw).equals(input)).toBe(true);
    expect(r.idle()).toBe(true);
  });

  it('a HEAD request\'s response has no body whatever its Content-Length says', () => {
    const { r, seen } = reader('response', { bodyless: () => true });
    r.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n'));
    expect(seen.ends).toBe(1);
    expect(r.idle()).toBe(true);
  });

  it('bytes that do not begin HTTP/ are an error at once, before any line end', () => {
    const { r, seen } = reader('response');
    r.feed(Buffer.from('SSH-2.0-OpenSSH'));
    expect(seen.errors).toHaveLength(1);
    expect(seen.errors[0]).toMatch(/^HPE_INVALID_CONSTANT: Parse Error: expected HTTP\//);
    expect(seen.heads).toEqual([]);
  });

  it.each([
    ['a chunk size that is not hex', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /^HPE_INVALID_CHUNK_SIZE/],
    ['a chunk longer than its size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n', /^HPE_STRICT/],
    ['two Content-Lengths that differ', 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', /^HPE_INVALID_CONTENT_LENGTH/],
    ['a header line without a colon', 'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', /^HPE_INVALID_HEADER_TOKEN/],
    ['a status line without a status', 'HTTP/1.1 OK\r\n\r\n', /^HPE_INVALID_STATUS/],
  ])('%s is an error naming it', (_what, bytes, code) => {
    const { r, seen } = reader('response');
    r.feed(Buffer.from(bytes));
    expect(seen.errors).toHaveLength(1);
    expect(seen.errors[0]).toMatch(code);
  });

  it('a head over the limit is an error, and nothing after it is read', () => {
    const { r, seen } = reader('request', { maxHeadBytes: 64 });
    r.feed(Buffer.from(`GET / HTTP/1.1\r\nX-Long: ${'a'.repeat(100)}`));
    expect(seen.errors[0]).toMatch(/^HPE_HEADER_OVERFLOW/);
    r.feed(Buffer.from('\r\n\r\n'));
    expect(seen.heads).toEqual([]);
  });

  it('a body cut by the close is not a whole message; a body delimited by the close is', () => {
    const cutShort = reader('response');
    cutShort.r.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(cutShort.r.end()).toBe(false);
    expect(cutShort.seen.ends).toBe(0);
    const untilClose = reader('response');
    untilClose.r.feed(Buffer.from('HTTP/1.1 200 OK\r\n\r\nabc'));
    expect(untilClose.r.end()).toBe(true);
    expect(untilClose.seen.bodies).toEqual(['abc']);
  });

  it('a request that is not HTTP is an error naming the request line', () => {
    const { r, seen } = reader('request');
    r.feed(Buffer.from('\x16\x03\x01 hello\r\n\r\n'));
    expect(seen.errors[0]).toMatch(/^HPE_INVALID_METHOD: Parse Error: expected a request line/);
  });
});

describe('requests, read as strictly as Node reads them', () => {
  const accepted = [
    'POST /a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n10;a="b c"\r\n0123456789abcdef\r\n2\r\n{}\r\n000\r\nX-T: 1\r\n\r\n',
    'POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 002 \r\n\r\n{}GET /c HTTP/1.1\r\nHost: a\r\n\r\n',
  ];
  const refused = [
    'POST /a HTTP/1.1\r\nContent-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\n\r\n',
    'POST /a HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}',
    'POST /a HTTP/1.1\r\nX: a\r\n b\r\nContent-Length: 2\r\n\r\n{}',
    'POST /a HTTP/1.1\nContent-Length: 2\n\n{}',
    'POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2 \r\n{}\r\n0\r\n\r\n',
    'POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\n0\r\n\r\n',
  ];

  it('a request split at any points reads as in one piece; a refused one is refused before its head is handed on', async () => {
    await checkLaw(file, 'a request split at any points reads as in one piece; a refused one is refused before its head is handed on', fc.property(fc.constantFrom(...accepted, ...refused), fc.array(fc.nat(), { maxLength: 12 }), (text, offsets) => {
      const whole = reader('request');
      whole.r.feed(Buffer.from(text, 'latin1'));
      const split = reader('request');
      for (const piece of cut(Buffer.from(text, 'latin1'), offsets)) split.r.feed(piece);
      expect(split.seen.heads).toEqual(whole.seen.heads);
      expect(split.seen.bodies).toEqual(whole.seen.bodies);
      expect(split.seen.errors.map((e) => e.split(':')[0])).toEqual(whole.seen.errors.map((e) => e.split(':')[0]));
      if (refused.includes(text)) {
        expect(whole.seen.errors).toHaveLength(1);
        // Header-level faults are refused before the head is handed on: no run, nothing forwarded.
        if (!text.includes('\r\n\r\n2')) expect(whole.seen.heads).toEqual([]);
      } else {
        expect(whole.seen.errors).toEqual([]);
      }
    }), params);
  }, timeout);

  it('reads nothing after a request that closes the connection', () => {
    const { r, seen } = reader('request');
    r.feed(Buffer.from('GET /1 HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\nGET /2 HTTP/1.1\r\n\r\n'));
    expect(seen.heads.map((h) => h.target)).toEqual(['/1']);
    expect(seen.errors).toEqual([]);
    expect(seen.raw.map((b) => b.toString('latin1'))).toEqual(['GET /1 HTTP/1.1\r\nConnection: keep-alive, close\r\n\r\n']);
  });
});
