/**
 * The in-memory session store of one mock instance (ADK's InMemorySessionService): sessions keyed
 * by app, user and id. It holds data only; the bytes of every answer are the dialect's business.
 */
export type StoredSession = {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  /** The stored events, as the exact JSON texts the stream carried. */
  events: string[];
  /** Epoch milliseconds of the last change (the dialect decides the unit on the wire). */
  lastUpdateTime: number;
};

export type SessionStore = {
  get: (appName: string, userId: string, sessionId: string) => StoredSession | undefined;
  /** `undefined` when a session with that id already exists (the caller answers the dialect's duplicate error). */
  create: (appName: string, userId: string, sessionId: string, state: Record<string, unknown>) => StoredSession | undefined;
  list: (appName: string, userId: string) => StoredSession[];
  delete: (appName: string, userId: string, sessionId: string) => boolean;
  size: () => number;
  clear: () => void;
};

export type SessionStoreConfig = { now?: () => number; maxSessions?: number };

export function createSessionStore(config: SessionStoreConfig = {}): SessionStore {
  const now = config.now ?? Date.now;
  // Bounded like the journal: a harness that creates a session per run for hours must not grow
  // the mock without limit. Map iteration order is insertion order, so the first key is the oldest.
  const maxSessions = config.maxSessions ?? 100_000;
  const sessions = new Map<string, StoredSession>();
  // Length-prefixed, so no two (app, user, id) triples share a key, whatever characters they hold;
  // cheaper than JSON.stringify, and every run request looks its session up.
  const key = (a: string, u: string, s: string) => `${a.length}:${a}${u.length}:${u}${s}`;

  return {
    get: (a, u, s) => sessions.get(key(a, u, s)),
    create(a, u, s, state) {
      const k = key(a, u, s);
      if (sessions.has(k)) return undefined;
      const session: StoredSession = { id: s, appName: a, userId: u, state: { ...state }, events: [], lastUpdateTime: now() };
      sessions.set(k, session);
      while (sessions.size > maxSessions) {
        const oldest = sessions.keys().next().value;
        if (oldest === undefined) break;
        sessions.delete(oldest);
      }
      return session;
    },
    list: (a, u) => [...sessions.values()].filter((s) => s.appName === a && s.userId === u),
    delete: (a, u, s) => sessions.delete(key(a, u, s)),
    size: () => sessions.size,
    clear: () => sessions.clear(),
  };
}
