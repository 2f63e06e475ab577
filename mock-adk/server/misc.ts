/**
 * The server's small routes, in the dialect's bytes: `GET /list-apps` (the scenario ids, sorted,
 * as the real server lists its agent folders), `GET /health`, `GET /version`, and adk-js's
 * `GET /` ("✔ 200 `OK`", wire-format §1).
 */
import { dialects, isAdkJs } from '../core/dialects/index.ts';
import { answer, type MockRoute } from './route-types.ts';

export const miscRoutes: readonly MockRoute[] = [
  { method: 'GET', path: '/list-apps', handle: (state) => answer(dialects[state.dialect].listApps([...state.scenarioIds])) },
  { method: 'GET', path: '/health', handle: (state) => answer(dialects[state.dialect].health()) },
  { method: 'GET', path: '/version', handle: (state) => answer(dialects[state.dialect].version()) },
  {
    method: 'GET',
    path: '/',
    handle: (state) => answer(isAdkJs(state.dialect) ? dialects[state.dialect].health() : dialects['adk-python'].notFound('GET', '/')),
  },
];
