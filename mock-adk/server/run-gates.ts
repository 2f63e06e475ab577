/**
 * The answers adk-python 2.x and adk-go give a run request before any stream starts, read from
 * their handlers (the older dialects' checks stay in run-flow.ts):
 *
 * adk-python 2.x, `run_agent_sse` / `run_agent` in google/adk-python
 * `src/google/adk/cli/api_server.py`@024a438920293e9de5f95b58c0669f858d39fa6f:
 *   no app name and no ADK_DEFAULT_APP_NAME → 400; `get_runner_async`: a `__` app → 403, the
 *   loader's ValueError → 404 `str(ve)`; then (without auto_create_session) the session → 404.
 *   Every HTTPException is FastAPI's `{"detail": …}` JSONResponse (adkPython.json).
 * adk-go 2.0.0, `RunSSEHandler` / `RunHandler` in google/adk-go
 * `server/adkrest/controllers/runtime.go`@0a51e153ad5a72ad8a003c5c0ef8d8e98f88139e:
 *   decode (400, run-request-go.ts) → `validateSessionExists` (404) → `getRunner` (500), each an
 *   `http.Error` text/plain line; `/run` goes through NewErrorHandler, which drops the handler's
 *   own "failed to find the session: " / "failed to get runner: " prefixes.
 */
import { goError } from '../core/dialects/adk-go.ts';
import { adkPython } from '../core/dialects/adk-python.ts';
import type { HttpAnswer } from '../core/types.ts';
import type { MockState } from './mock-state.ts';

/** 2.x: the app the request runs (its own, else the default), or the 400. */
export function python2xAppName(state: MockState, appName: string): { ok: true; appName: string } | { ok: false; answer: HttpAnswer } {
  const name = appName || state.defaultAppName;
  if (name) return { ok: true, appName: name };
  return { ok: false, answer: adkPython.json(400, { detail: 'app_name is required when ADK_DEFAULT_APP_NAME is not set' }) };
}

/**
 * 2.x `get_runner_async` for an app no scenario serves: 403 for `__` names (checked before
 * loading, whatever exists), else AgentLoader's answer. The loader (`cli/utils/agent_loader.py`
 * @139e4888ed4211fd2a4825ce115cf936b6fbb037) raises a ValueError after trying the module, the
 * `.agent` submodule and root_agent.yaml → 404 with that text. A dotted name fails inside
 * `importlib.import_module` with an error that is not a ValueError (ModuleNotFoundError for the
 * parent package, TypeError for a relative name): Starlette's bare 500.
 */
export function python2xSpecialApp(appName: string): HttpAnswer | undefined {
  if (!appName.startsWith('__')) return undefined;
  return adkPython.json(403, { detail: 'Access to internal special agents is disabled in API server mode.' });
}

export function python2xUnknownApp(appName: string, agentsDir: string): HttpAnswer {
  if (appName.includes('.')) return starletteServerError();
  const detail = `No root_agent found for '${appName}'. Searched in '${appName}.agent.root_agent', '${appName}.root_agent' and '${appName}/root_agent.yaml'.\n\n`
    + `Expected directory structure:\n  <agents_dir>/\n    ${appName}/\n      agent.py (with root_agent) OR\n      root_agent.yaml\n\n`
    + `Then run: adk web <agents_dir>\n\nEnsure '${agentsDir.replace(/\/+$/, '')}/${appName}' is structured correctly, an .env file can be loaded if present, and a root_agent is exposed.`;
  return adkPython.json(404, { detail });
}

/** Starlette's ServerErrorMiddleware: `Internal Server Error`, text/plain. */
export function starletteServerError(): HttpAnswer {
  const base = adkPython.json(500, null);
  const body = 'Internal Server Error';
  return {
    status: 500,
    headers: base.headers.map(([name, value]): [string, string] => (name === 'content-length' ? [name, String(body.length)] : name === 'content-type' ? [name, 'text/plain; charset=utf-8'] : [name, value])),
    body,
  };
}

/** Go's `%q` for the plain strings ids are (printable ASCII is kept; the rest escaped as strconv.Quote does for common cases). */
function goQuote(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-9a-f]{2})/g, '\\x$1').replace(/[\u007f]/g, '\\x7f');
}

/**
 * adk-go's session lookup: the in-memory service (`session/inmemory.go`@0a51e153) refuses an
 * empty id before it looks, then says `session <id> not found`; validateSessionExists wraps
 * either in "failed to get session: %w".
 */
export function goSessionMissing(app: string, user: string, sid: string, route: 'sse' | 'json'): HttpAnswer {
  const cause = app === '' || user === '' || sid === ''
    ? `app_name, user_id, session_id are required, got app_name: ${goQuote(app)}, user_id: ${goQuote(user)}, session_id: ${goQuote(sid)}`
    : `session ${sid} not found`;
  const message = `failed to get session: ${cause}`;
  return goError(404, route === 'sse' ? `failed to find the session: ${message}` : message);
}

/**
 * adk-go `getRunner`: the loader's error wrapped in "failed to load agent: %w", a 500. The
 * multi-agent loader (`agent/loader.go`@0a51e153) lists its agents with `%v` of a slice built
 * from a map, so Go's order is random; the mock lists them sorted.
 */
export function goUnknownApp(appName: string, appNames: readonly string[], route: 'sse' | 'json'): HttpAnswer {
  const message = `failed to load agent: agent ${appName} not found. Please specify one of those: [${appNames.join(' ')}]`;
  return goError(500, route === 'sse' ? `failed to get runner: ${message}` : message);
}
