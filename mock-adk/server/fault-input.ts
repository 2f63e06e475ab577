/**
 * Faults a request adds to a run, on top of the scenario's own `faults`: those armed with
 * `POST /_mock/arm`, and those named in the `X-Mock-Faults` header (a JSON array of
 * `{name, ...params}`, or comma-separated names), handy from curl. Names are checked against the
 * fault engine's catalogue before anything is rendered, so a typo is a 400 naming it.
 */
import type { Scenario } from '../../schemas/types.ts';
import { applyFaults, faultNames, resolveFault } from '../core/faults.ts';
import type { ReplayPlan } from '../core/types.ts';
import { mockError } from './mock-errors.ts';
import type { FaultSpec } from './mock-state.ts';
import type { MockResult } from './route-types.ts';

export const faultHeader = 'x-mock-faults';

const known = (): ReadonlySet<string> => new Set<string>(faultNames as Iterable<string>);

export type FaultListProblem = { kind: 'shape' | 'unknown-name'; message: string };

/** The problem with a fault list, or undefined when every entry is `{name: <known>, ...}`. */
export function faultListProblem(value: unknown, where: string): FaultListProblem | undefined {
  const shape = (message: string): FaultListProblem => ({ kind: 'shape', message });
  if (!Array.isArray(value)) return shape(`${where} must be an array of {name, ...params} objects, got ${describe(value)}`);
  const names = known();
  for (const [index, fault] of value.entries()) {
    if (fault === null || typeof fault !== 'object' || Array.isArray(fault)) return shape(`${where}[${index}] must be an object {name, ...params}, got ${describe(fault)}`);
    const name = (fault as { name?: unknown }).name;
    if (typeof name !== 'string') return shape(`${where}[${index}].name must be a string, got ${describe(name)}`);
    if (!names.has(name)) return { kind: 'unknown-name', message: `${where}[${index}].name '${name}' is not a known fault; known faults: ${[...names].sort().join(', ')}` };
    try {
      resolveFault(fault);
    } catch (error) {
      return shape(`${where}[${index}]: ${(error as Error).message}`);
    }
  }
  return undefined;
}

/**
 * The scenario's faults and the request's (armed, header) as one list, so the fault engine orders
 * them by phase together. A failure is blamed on the scenario when its own faults fail alone.
 */
export function applyRunFaults(plan: ReplayPlan, scenario: Scenario, requestFaults: readonly FaultSpec[]): { ok: true; plan: ReplayPlan } | { ok: false; result: MockResult } {
  const own = (scenario.faults ?? []) as FaultSpec[];
  // No fault at all (most runs): the plan as rendered, as applyFaults would give it back.
  if (own.length === 0 && requestFaults.length === 0) return { ok: true, plan };
  try {
    return { ok: true, plan: applyFaults(plan, [...own, ...requestFaults]) };
  } catch (error) {
    try {
      applyFaults(plan, own);
    } catch (ownError) {
      return { ok: false, result: mockError('MOCK_FAULT_FAILED', `scenario '${scenario.id}': its faults cannot be applied: ${(ownError as Error).message}`, { scenario: scenario.id }) };
    }
    return { ok: false, result: mockError('MOCK_BAD_FAULTS', `scenario '${scenario.id}': the armed or X-Mock-Faults faults cannot be applied: ${(error as Error).message}`, { scenario: scenario.id }) };
  }
}

export type FaultHeaderOutcome = { ok: true; faults: FaultSpec[] } | { ok: false; problem: string };

export function parseFaultHeader(value: string | undefined): FaultHeaderOutcome {
  if (value === undefined || value.trim() === '') return { ok: true, faults: [] };
  const text = value.trim();
  let list: unknown;
  if (text.startsWith('[')) {
    try {
      list = JSON.parse(text) as unknown;
    } catch (error) {
      return { ok: false, problem: `the X-Mock-Faults header is not valid JSON: ${(error as Error).message}` };
    }
  } else {
    list = text.split(',').map((name) => ({ name: name.trim() }));
  }
  const problem = faultListProblem(list, 'X-Mock-Faults');
  return problem ? { ok: false, problem: problem.message } : { ok: true, faults: list as FaultSpec[] };
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
