/**
 * The request journal behind `GET /_mock/requests`: every request the mock received, with the
 * exact body text, so a harness can check what a gateway forwarded byte for byte.
 * Bounded twice (entry count and body characters), oldest first out, so a long run cannot grow memory
 * without limit; `dropped` says how many were let go.
 */
export type JournalEntry = {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  /** The body exactly as received, decoded as UTF-8 ('' when there was none). */
  body: string;
  /** ISO 8601 time the mock received the request. */
  receivedAt: string;
  /** The session the request names (body `sessionId`/`session_id`, or the URL's `/sessions/{id}`), for `?sessionId=`. */
  sessionId?: string;
};

/**
 * A request as received, made into its `JournalEntry` only when the journal is listed: the time's
 * text and the session (a JSON parse of the body) cost more per request than the rest of
 * recording, and most entries are never read (issue 30: the mock's CPU per short run).
 */
export type ReceivedRequest = {
  method: string;
  url: string;
  /** Never changed after it is recorded (the mock's handlers only read a request). */
  headers: Record<string, string | undefined>;
  body: string;
  /** Epoch ms the mock received it (`receivedAt` is its ISO text). */
  receivedAtMs: number;
};

export type JournalConfig = { maxEntries?: number; maxBodyChars?: number };

export type Journal = {
  record: (entry: JournalEntry | ReceivedRequest) => void;
  list: (filter?: { sessionId?: string }) => JournalEntry[];
  clear: () => void;
  stats: () => { size: number; dropped: number; maxEntries: number };
};

export const defaultJournalLimits = { maxEntries: 10_000, maxBodyChars: 64 * 1024 * 1024 } as const;

export function createJournal(config: JournalConfig = {}): Journal {
  const maxEntries = config.maxEntries ?? defaultJournalLimits.maxEntries;
  const maxBodyChars = config.maxBodyChars ?? defaultJournalLimits.maxBodyChars;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`journal maxEntries must be a positive integer, got ${maxEntries}`);
  if (!Number.isInteger(maxBodyChars) || maxBodyChars < 0) throw new RangeError(`journal maxBodyChars must be a non-negative integer, got ${maxBodyChars}`);
  // A plain array with a moving head: shifting 10,000 entries on every request would be quadratic.
  let entries: Array<JournalEntry | ReceivedRequest> = [];
  let head = 0;
  let bodyChars = 0;
  let dropped = 0;

  function evictOne(): void {
    const oldest = entries[head];
    if (!oldest) return;
    entries[head] = undefined as unknown as JournalEntry;
    head += 1;
    bodyChars -= oldest.body.length;
    dropped += 1;
    if (head > 1024 && head * 2 > entries.length) { entries = entries.slice(head); head = 0; }
  }

  return {
    record(entry) {
      entries.push(entry);
      bodyChars += entry.body.length;
      while (entries.length - head > maxEntries || (bodyChars > maxBodyChars && entries.length - head > 1)) evictOne();
    },
    list(filter = {}) {
      for (let i = head; i < entries.length; i++) {
        const stored = entries[i]!;
        if ('receivedAtMs' in stored) entries[i] = entryOf(stored);
      }
      const live = entries.slice(head) as JournalEntry[];
      return filter.sessionId === undefined ? live : live.filter((e) => e.sessionId === filter.sessionId);
    },
    clear() { entries = []; head = 0; bodyChars = 0; },
    stats() { return { size: entries.length - head, dropped, maxEntries }; },
  };
}

/** The entry of a received request: its time as ISO text, and the session it names. */
function entryOf(request: ReceivedRequest): JournalEntry {
  let parsed: unknown;
  const text = request.body.trimStart();
  if (text.startsWith('{')) {
    try { parsed = JSON.parse(request.body) as unknown; } catch { parsed = undefined; }
  }
  const sessionId = sessionIdOf(request.url.split('?')[0] ?? '', parsed);
  return {
    method: request.method,
    url: request.url,
    headers: request.headers as Record<string, string>,
    body: request.body,
    receivedAt: new Date(request.receivedAtMs).toISOString(),
    ...(sessionId !== undefined ? { sessionId } : {}),
  };
}

/** The session a request is about, for the journal filter. */
export function sessionIdOf(url: string, parsedBody: unknown): string | undefined {
  if (parsedBody !== null && typeof parsedBody === 'object' && !Array.isArray(parsedBody)) {
    const body = parsedBody as Record<string, unknown>;
    const id = body['sessionId'] ?? body['session_id'];
    if (typeof id === 'string') return id;
  }
  const match = /\/sessions\/([^/?#]+)/.exec(url);
  if (!match?.[1]) return undefined;
  try { return decodeURIComponent(match[1]); } catch { return match[1]; }
}
