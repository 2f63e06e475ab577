/**
 * The client memory probe's transport (CLI-MEM-001): in the probe's own process (memory-child.ts),
 * the global `fetch` answers the probe's own origin there, with the bytes its HTTP server would
 * send, and passes every other request to the real fetch. This is the mock's msw shell's trick (a
 * browser app's fetch answered in its page) with one endpoint: the client's code runs as it does,
 * only no socket is opened.
 *
 * Why: over real HTTP, 11,000 streams cost the reference client 9.5 s of CPU in one process, 4.9 s
 * of it a bare fetch's own (bench harness, "memory runs at bare cost"); answered here, 2.5 s
 * (2026-11-29, node --expose-gc on the compiled kit). The socket path is every other client run's:
 * each scenario and probe is a real POST to a real server. A client that does not call the
 * global fetch (node:http, axios, undici's request) reaches the real server as before; the
 * probe's note says how many streams went which way.
 */

export type Answer = { status: number; headers: Record<string, string>; body: Buffer };

export type LocalFetch = {
  /** Requests answered in this process (those that reached a socket are the server's to count). */
  counts: () => { local: number };
  /** Put the real fetch back. */
  restore: () => void;
};

function urlOf(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  if (input instanceof Request) return input.url;
  return undefined;
}

/**
 * Answer POSTs to `origin` (e.g. `http://127.0.0.1:4711`) in this process with `answer(requestBody)`.
 * Everything a real fetch would reject first is left to it (another origin, another method); an
 * aborted signal rejects as fetch does, with its reason.
 */
export function answerInProcess(origin: string, answer: (body: string) => Answer): LocalFetch {
  const real = globalThis.fetch;
  let local = 0;
  const prefix = `${origin}/`;
  const answering = async (input: unknown, init?: RequestInit): Promise<Response> => {
    const url = urlOf(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (url === undefined || !url.startsWith(prefix) || method !== 'POST') return real(input as Parameters<typeof fetch>[0], init);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    if (signal?.aborted) throw signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
    // The common case (a string body, as JSON.stringify gives) is read as is; any other through a Request, as fetch would.
    const body = typeof init?.body === 'string' ? init.body : await new Request(input as Parameters<typeof fetch>[0], init).text();
    const a = answer(body);
    local++;
    return new Response(a.body as unknown as BodyInit, { status: a.status, headers: a.headers });
  };
  globalThis.fetch = answering as typeof fetch;
  return {
    counts: () => ({ local }),
    restore: () => { if (globalThis.fetch === (answering as typeof fetch)) globalThis.fetch = real; },
  };
}
