/**
 * Breaks of the streaming passthrough: each edits what the canonical routes write to the client
 * (or when), and nothing else. The reference gateway underneath is unchanged.
 */
import { pyJsonDumps } from '../../../reference-impl/gateway/py-json.ts';
import { editResponse, gatewayFrame, isStreamPost, type GatewayBreak, type ResponseEdit } from './host.ts';

/** Apply an edit to every canonical stream response. */
const onStreams = (makeEdit: () => ResponseEdit): GatewayBreak => ({
  request(req, res) {
    if (isStreamPost(req)) editResponse(res, { ...makeEdit(), streamsOnly: true });
    return 'gateway';
  },
});

const withoutHeader = (name: string): GatewayBreak => onStreams(() => ({
  headers: (_status, headers) => Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== name)),
}));

/** Remove (or repeat) every gateway error frame matching `pattern` from a write. */
function frames(pattern: RegExp, keep: 0 | 2): ResponseEdit {
  return {
    write(chunk, emit) {
      const text = chunk.toString('utf8');
      if (!pattern.test(text)) { emit(chunk); return; }
      emit(text.replace(new RegExp(`data: [^\\n]*${pattern.source}[^\\n]*\\n\\n`, 'g'), (frame) => frame.repeat(keep)));
    },
  };
}

/** Each `data:` line that holds JSON, re-serialised in Python's json.dumps spacing (a partial line waits for its end). */
function reserialize(): ResponseEdit {
  let partial = Buffer.alloc(0);
  const line = (text: string): string => {
    const cr = text.endsWith('\r') ? '\r' : '';
    const body = cr ? text.slice(0, -1) : text;
    if (!body.startsWith('data: ')) return text;
    try {
      const value = JSON.parse(body.slice(6)) as unknown;
      return value !== null && typeof value === 'object' ? `data: ${pyJsonDumps(value)}${cr}` : text;
    } catch {
      return text;
    }
  };
  return {
    write(chunk, emit) {
      const all = Buffer.concat([partial, chunk]);
      const cut = all.lastIndexOf(0x0a) + 1;
      partial = all.subarray(cut);
      if (cut > 0) emit(all.subarray(0, cut).toString('utf8').split('\n').map(line).join('\n'));
    },
    end(emit) { emit(partial); partial = Buffer.alloc(0); },
  };
}

export const streamBreaks: Record<string, GatewayBreak> = {
  /** Writes each chunk only when the next arrives; the last one is lost at EOF (error frames survive). */
  'holds-back-last-chunk': onStreams(() => {
    let pending: Buffer | undefined;
    return {
      write(chunk, emit) { if (pending) emit(pending); pending = chunk; },
      end(emit) { if (pending && gatewayFrame.test(pending.toString('utf8'))) emit(pending); pending = undefined; },
    };
  }),
  'reserializes-json': onStreams(reserialize),
  'buffers-until-eof': onStreams(() => {
    const held: Buffer[] = [];
    return { write(chunk) { held.push(chunk); }, end(emit) { emit(Buffer.concat(held)); } };
  }),
  'no-content-type': withoutHeader('content-type'),
  'no-cache-control': withoutHeader('cache-control'),
  'no-accel-buffering': withoutHeader('x-accel-buffering'),
  // Node would add `Connection: keep-alive` by itself for a forgotten header; a wrong one is the real break.
  'connection-close': onStreams(() => ({ headers: (_s, h) => ({ ...Object.fromEntries(Object.entries(h).filter(([k]) => k.toLowerCase() !== 'connection')), Connection: 'close' }) })),
  /** `data: [DONE]` after a normal upstream end, the OpenAI habit. */
  'appends-done': onStreams(() => {
    let failed = false;
    return {
      write(chunk, emit) { if (gatewayFrame.test(chunk.toString('utf8'))) failed = true; emit(chunk); },
      end(emit) { if (!failed) emit('data: [DONE]\n\n'); },
    };
  }),
  'no-timeout-frame': onStreams(() => frames(/"error_code": "TIMEOUT"/, 0)),
  'swallows-upstream-errors': onStreams(() => frames(/("error_code": "STREAM_ERROR"|"status_code": )/, 0)),
  'doubles-error-frame': onStreams(() => frames(/("error_code": "STREAM_ERROR"|"status_code": )/, 2)),
  /** The client's disconnect never reaches the handler, so the upstream request is not aborted. */
  'keeps-upstream-on-disconnect': {
    request(req, res) {
      if (!isStreamPost(req)) return 'gateway';
      const emit = res.emit.bind(res) as (event: string, ...args: unknown[]) => boolean;
      res.emit = ((event: string, ...args: unknown[]) => (event === 'close' || event === 'error' ? false : emit(event, ...args))) as typeof res.emit;
      return 'gateway';
    },
  },
  /** The STREAM_ERROR frame written right after a cut's partial bytes, without closing the broken event. */
  'glues-stream-error': onStreams(() => ({
    write(chunk, emit) {
      const text = chunk.toString('utf8');
      emit(/"error_code": "STREAM_ERROR"/.test(text) ? text.replace(/^[\r\n]+(?=data: )/, '') : chunk);
    },
  })),
  /** The TIMEOUT frame written right after the bytes the stream had, without closing a partial event. */
  'glues-timeout-frame': onStreams(() => ({
    write(chunk, emit) {
      const text = chunk.toString('utf8');
      emit(/"error_code": "TIMEOUT"/.test(text) ? text.replace(/^[\r\n]+(?=data: )/, '') : chunk);
    },
  })),
  /** Error frames stamped with Date.now(): milliseconds, not the seed's seconds. */
  'timestamp-ms': onStreams(() => ({
    write(chunk, emit) {
      const text = chunk.toString('utf8');
      const toMs = (line: string) => line.replace(/"timestamp": (\d+(?:\.\d+)?)/, (_m, seconds: string) => `"timestamp": ${Math.round(Number(seconds) * 1000)}`);
      emit(gatewayFrame.test(text) ? text.split('\n').map((line) => (gatewayFrame.test(line) ? toMs(line) : line)).join('\n') : chunk);
    },
  })),
  /**
   * The client's disconnect is noticed only once upstream bytes flow (a listener installed in the
   * upstream's response callback): a client that leaves while the upstream still prepares its
   * answer leaves the upstream request open until then (here 2.5 s later).
   */
  'late-abort': {
    request(req, res) {
      if (!isStreamPost(req)) return 'gateway';
      let wrote = false;
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      res.write = ((...args: unknown[]) => { wrote = true; return write(...args); }) as typeof res.write;
      const emit = res.emit.bind(res) as (event: string, ...args: unknown[]) => boolean;
      res.emit = ((event: string, ...args: unknown[]) => {
        if (event === 'close' && !wrote) { setTimeout(() => emit(event, ...args), 2500); return true; }
        return emit(event, ...args);
      }) as typeof res.emit;
      return 'gateway';
    },
  },
  /** `/run_sse_enhanced` served from the upstream's plain `/run_sse`: no audit metadata. */
  'enhanced-to-run-sse': {
    request(req) {
      if (req.method === 'POST' && req.url === '/run_sse_enhanced') req.url = '/run_sse';
      return 'gateway';
    },
  },
};
