/**
 * The control routes (reserved prefix `/_mock/`, docs/design.md "Mock control routes"): arm a
 * session with a scenario, read and clear the request journal, read the stream counters, list
 * the scenarios and the faults. Bad control requests get a 4xx JSON `{code, error, fix}` naming
 * the field at fault; they never reach the imitated server's routes.
 */
import { faultCatalog } from '../core/faults.ts';
import { faultListProblem } from './fault-input.ts';
import { jsonAnswer, mockError } from './mock-errors.ts';
import { describeDialects, resolveDialect } from '../core/dialects/names.ts';
import { scenarioDialects, type FaultSpec, type MockState } from './mock-state.ts';
import type { MockRequest, MockResult, MockRoute } from './route-types.ts';

function arm(state: MockState, request: MockRequest): MockResult {
  let body: unknown;
  try {
    body = JSON.parse(request.body) as unknown;
  } catch (error) {
    return mockError('MOCK_ARM_BAD_BODY', `the /_mock/arm body is not JSON: ${(error as Error).message}`);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return mockError('MOCK_ARM_BAD_BODY', `the /_mock/arm body must be a JSON object, got ${Array.isArray(body) ? 'an array' : JSON.stringify(body)}`);
  const { sessionId, scenario: scenarioId, dialect, faults } = body as Record<string, unknown>;
  if (typeof sessionId !== 'string' || sessionId === '') return mockError('MOCK_ARM_BAD_FIELD', '`sessionId` must be a non-empty string (the session whose next run replays the scenario)');
  if (typeof scenarioId !== 'string' || scenarioId === '') return mockError('MOCK_ARM_BAD_FIELD', '`scenario` must be a non-empty string (a scenario id)');
  const scenario = state.scenarios.get(scenarioId);
  if (!scenario) return mockError('MOCK_UNKNOWN_SCENARIO', `no scenario has the id '${scenarioId}'`);
  if (dialect !== undefined) {
    const key = resolveDialect(dialect);
    if (!key) return mockError('MOCK_ARM_BAD_FIELD', `\`dialect\` must be one of ${describeDialects()}, got ${JSON.stringify(dialect)}`);
    const allowed = scenarioDialects(scenario);
    if (!allowed.includes(key)) return mockError('MOCK_ARM_BAD_DIALECT', `scenario '${scenarioId}' renders only in ${allowed.join(', ')}, not ${String(dialect)}`);
  }
  if (faults !== undefined) {
    const problem = faultListProblem(faults, '`faults`');
    if (problem) return mockError(problem.kind === 'unknown-name' ? 'MOCK_UNKNOWN_FAULT' : 'MOCK_ARM_BAD_FIELD', problem.message);
  }
  const key = resolveDialect(dialect);
  const armed = { scenario, faults: (faults ?? []) as FaultSpec[], ...(key !== undefined ? { dialect: key } : {}) };
  state.armed.set(sessionId, armed);
  return jsonAnswer(200, { armed: { sessionId, scenario: scenarioId, dialect: dialect ?? null, faults: armed.faults } });
}

export const controlRoutes: readonly MockRoute[] = [
  { method: 'POST', path: '/_mock/arm', handle: arm },
  {
    method: 'GET',
    path: '/_mock/requests',
    handle(state, request) {
      const sessionId = request.query.get('sessionId');
      const requests = state.journal.list(sessionId === null ? {} : { sessionId });
      return jsonAnswer(200, { requests, dropped: state.journal.stats().dropped });
    },
  },
  {
    method: 'DELETE',
    path: '/_mock/requests',
    handle(state) {
      const cleared = state.journal.stats().size;
      state.journal.clear();
      return jsonAnswer(200, { cleared });
    },
  },
  { method: 'GET', path: '/_mock/streams', handle: (state, request) => jsonAnswer(200, state.streams.snapshot(request.query.get('sessionId') ?? undefined)) },
  {
    method: 'GET',
    path: '/_mock/scenarios',
    handle: (state) => jsonAnswer(200, {
      ids: state.scenarioIds,
      scenarios: state.scenarioIds.map((id) => {
        const s = state.scenarios.get(id);
        return { id, kind: s?.upstream.kind, dialects: s ? scenarioDialects(s) : [], endpoint: s?.request.endpoint ?? '/run_sse' };
      }),
    }),
  },
  { method: 'GET', path: '/_mock/faults', handle: () => jsonAnswer(200, { faults: faultCatalog }) },
  {
    // Not in the design's list: lets one mock serve many independent harness runs.
    method: 'POST',
    path: '/_mock/reset',
    handle(state) {
      state.sessions.clear();
      state.armed.clear();
      state.journal.clear();
      return jsonAnswer(200, { reset: true });
    },
  },
];
