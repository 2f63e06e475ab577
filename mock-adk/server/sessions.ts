/**
 * Session routes under `/apps/{app}/users/{user}/sessions`, over the instance's in-memory store,
 * answered in the dialect's bytes (wire-format §1 and §7):
 * adk-js: create with id → 200, duplicate → 400, "No app validation: 200 for an unknown app";
 * list → a paginated object; delete → 204, 404 when missing.
 * adk-python: duplicate → 409; list → a plain list; delete → 200 `null` with no existence check.
 */
import { randomUUID } from 'node:crypto';
import { dialects, isAdkJs } from '../core/dialects/index.ts';
import type { SessionView } from '../core/dialects/spec.ts';
import type { MockState } from './mock-state.ts';
import { isPlainObject, readJsonBody, validationError } from './request-body.ts';
import { answer, type MockRequest, type MockResult, type MockRoute } from './route-types.ts';
import type { StoredSession } from './session-store.ts';

const base = '/apps/:app/users/:user/sessions';

export function sessionView(session: StoredSession): SessionView {
  return { id: session.id, appName: session.appName, userId: session.userId, state: session.state, events: [...session.events], lastUpdateTime: session.lastUpdateTime };
}

type Ids = { app: string; user: string; sid: string };
const ids = (request: MockRequest): Ids => ({ app: request.params['app'] ?? '', user: request.params['user'] ?? '', sid: request.params['sid'] ?? '' });

/** The initial state a create request carries, or the dialect's answer to a bad body. */
function initialState(state: MockState, request: MockRequest, withId: boolean): { ok: true; state: Record<string, unknown>; sessionId?: string } | { ok: false; result: MockResult } {
  const body = readJsonBody(state.dialect, request);
  if (!body.ok) return { ok: false, result: answer(body.answer) };
  const value = body.value;
  if (isAdkJs(state.dialect)) {
    // `const state = req.body?.state ?? {}`: anything else in the body is ignored.
    const given = isPlainObject(value) ? value['state'] : undefined;
    return { ok: true, state: isPlainObject(given) ? given : {} };
  }
  if (value === undefined || value === null) return { ok: true, state: {} };
  if (!isPlainObject(value)) return { ok: false, result: answer(validationError([{ type: 'dict_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: value }])) };
  // Python: the deprecated create-with-id route takes the state dict itself as the body; the
  // create route takes `{sessionId?, state?, events?}` (python-facts §1.5).
  if (withId) return { ok: true, state: value };
  const given = value['state'];
  const sessionId = value['sessionId'] ?? value['session_id'];
  const result: { ok: true; state: Record<string, unknown>; sessionId?: string } = { ok: true, state: isPlainObject(given) ? given : {} };
  // "A session id that is blank after strip is replaced."
  if (typeof sessionId === 'string' && sessionId.trim() !== '') result.sessionId = sessionId.trim();
  return result;
}

function create(state: MockState, request: MockRequest, withId: boolean): MockResult {
  const spec = dialects[state.dialect];
  const { app, user, sid } = ids(request);
  const input = initialState(state, request, withId);
  if (!input.ok) return input.result;
  const id = withId ? sid : input.sessionId ?? randomUUID();
  const created = state.sessions.create(app, user, id, input.state);
  if (!created) return answer(spec.sessionExists(id));
  return answer(spec.session(sessionView(created)));
}

export const sessionRoutes: readonly MockRoute[] = [
  { method: 'POST', path: `${base}/:sid`, handle: (state, request) => create(state, request, true) },
  { method: 'POST', path: base, handle: (state, request) => create(state, request, false) },
  {
    method: 'GET',
    path: `${base}/:sid`,
    handle(state, request) {
      const spec = dialects[state.dialect];
      const { app, user, sid } = ids(request);
      const session = state.sessions.get(app, user, sid);
      return answer(session ? spec.session(sessionView(session)) : spec.sessionNotFound(sid, 'get'));
    },
  },
  {
    method: 'GET',
    path: base,
    handle(state, request) {
      const { app, user } = ids(request);
      return answer(dialects[state.dialect].listSessions(state.sessions.list(app, user).map(sessionView)));
    },
  },
  {
    method: 'DELETE',
    path: `${base}/:sid`,
    handle(state, request) {
      const spec = dialects[state.dialect];
      const { app, user, sid } = ids(request);
      const deleted = state.sessions.delete(app, user, sid);
      // Python's in-memory delete has no existence check: 200 `null` either way.
      return answer(deleted || state.dialect === 'adk-python' ? spec.deleteSession() : spec.sessionNotFound(sid, 'delete'));
    },
  },
];
