/**
 * The transport of the client probes that run thousands of streams through ONE module client: the
 * memory probe (CLI-MEM-001, in its own process, memory-child.ts) and the long-lived probe
 * (CLI-ISO-001, instances.ts). The global `fetch` answers the probe's own origin with the bytes its
 * HTTP server would send, and passes every other request to the real fetch. This is the mock's msw shell's trick (a
 * browser app's fetch answered in its page) with one endpoint: the client's code runs as it does,
 * only no socket is opened.
 *
 * Why: over real HTTP, 11,000 streams cost the reference client 9.5 s of CPU in one process, 4.9 s
 * of it a bare fetch's own (bench harness, "memory runs at bare cost"); answered here, 2.5 s
 * (2026-11-29, node --expose-gc on the compiled kit). The socket path is every other client run's:
 * each scenario and probe is a real POST to a real server. A client that does not call the
 * global fetch (node:http, axios, undici's request) reaches the real server as before; the
 * memory probe's note says how many streams went which way. The long-lived probe compares a run of
 * the shared client with the same bytes read by a fresh one, both through the same transport.
 *
 * Several origins may be answered at once (the long-lived probe's shared and fresh instances, in
 * the harness's own process): one wrapper is in place while any is, and the real fetch goes back
 * when the last one is restored.
 */

/** `body`: the whole body at once, or a stream (a byte case's chunks with their gaps, its reset or held-open end). */
export type Answer = { status: number; headers: Record<string, string>; body: Buffer | ReadableStream<Uint8Array> };

export type LocalFetch = {
  /** Requests answered in this process (those that reached a socket are the server's to count). */
  counts: () => { local: number };
  /** Stop answering this origin; the real fetch is put back when no origin is answered any more. */
  restore: () => void;
};

type Answering = { answer: (body: string, url: string) => Answer; served: number };

function urlOf(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  if (input instanceof Request) return input.url;
  return undefined;
}

/** Origins answered here, by their prefix (`http://127.0.0.1:4711/`). */
const answered = new Map<string, Answering>();
let real: typeof fetch | undefined;
let wrapper: typeof fetch | undefined;

async function answering(input: unknown, init?: RequestInit): Promise<Response> {
  const pass = real as typeof fetch;
  const url = urlOf(input);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const at = url === undefined ? -1 : url.indexOf('/', url.indexOf('//') + 2);
  const entry = url === undefined || method !== 'POST' ? undefined : answered.get(at < 0 ? `${url}/` : url.slice(0, at + 1));
  if (url === undefined || !entry) return pass(input as Parameters<typeof fetch>[0], init);
  const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
  if (signal?.aborted) throw signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
  // The common case (a string body, as JSON.stringify gives) is read as is; any other through a Request, as fetch would.
  const text = typeof init?.body === 'string' ? init.body : await new Request(input as Parameters<typeof fetch>[0], init).text();
  const a = entry.answer(text, url);
  entry.served++;
  return new Response(a.body as unknown as BodyInit, { status: a.status, headers: a.headers });
}

/**
 * Answer POSTs to `origin` (e.g. `http://127.0.0.1:4711`) in this process with `answer(requestBody, url)`.
 * Everything a real fetch would reject first is left to it (another origin, another method); an
 * aborted signal rejects as fetch does, with its reason.
 */
export function answerInProcess(origin: string, answer: (body: string, url: string) => Answer): LocalFetch {
  const prefix = `${new URL(origin).origin}/`;
  if (answered.has(prefix)) throw new Error(`answerInProcess: ${origin} is answered in this process already; restore it first`);
  const entry: Answering = { answer, served: 0 };
  answered.set(prefix, entry);
  if (wrapper === undefined || globalThis.fetch !== wrapper) {
    real = globalThis.fetch;
    wrapper = answering as typeof fetch;
    globalThis.fetch = wrapper;
  }
  return {
    counts: () => ({ local: entry.served }),
    restore: () => {
      if (answered.get(prefix) !== entry) return;
      answered.delete(prefix);
      if (answered.size === 0 && globalThis.fetch === wrapper && real) { globalThis.fetch = real; wrapper = undefined; }
    },
  };
}

/**
 * A body that arrives as a server writes `chunks`: each after its gap, then the end `transport`
 * says: `eof`, `reset` (the body errors as undici's does when the socket closes mid-body:
 * TypeError "terminated"), or `hold-open` (no end until the reader cancels).
 */
export function chunkedBody(chunks: ReadonlyArray<{ bytes: Uint8Array; delayMs: number }>, transport: 'eof' | 'reset' | 'hold-open'): ReadableStream<Uint8Array> {
  let i = 0;
  let timer: NodeJS.Timeout | undefined;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[i++];
      if (!chunk) {
        if (transport === 'reset') controller.error(Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
        else if (transport === 'eof') controller.close();
        return undefined;
      }
      if (chunk.delayMs <= 0) { controller.enqueue(new Uint8Array(chunk.bytes)); return undefined; }
      return new Promise<void>((resolve) => { timer = setTimeout(() => { controller.enqueue(new Uint8Array(chunk.bytes)); resolve(); }, chunk.delayMs); });
    },
    cancel() { clearTimeout(timer); },
  }, { highWaterMark: 0 });
}
