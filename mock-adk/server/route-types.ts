/**
 * The platform-free shape of the mock's routes. Each concern (sessions, run, enhanced,
 * anthropic, control, misc) is a list of `MockRoute`s; the fastify shell registers each list as
 * one plugin and the msw shell turns the same lists into handlers, so both serve identical bytes.
 */
import type { ReplayPlan } from '../core/types.ts';
import type { MockState } from './mock-state.ts';

/** A request as the handlers see it: no framework objects, the body as exact text. */
export type MockRequest = {
  method: string;
  /** Path and query, as received. */
  url: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Lower-case names. */
  headers: Record<string, string | undefined>;
  body: string;
};

/** A complete, non-streamed HTTP answer; headers in wire order. */
export type Answer = {
  status: number;
  headers: Array<[string, string]>;
  body: string;
};

export type MockResult =
  | { kind: 'answer'; answer: Answer }
  /** A scenario replay: counted in `/_mock/streams`. */
  | { kind: 'replay'; plan: ReplayPlan; scenarioId: string; /** The session the run names, for the per-session counters. */ sessionId?: string };

export type MockRoute = {
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH' | 'PUT' | 'OPTIONS';
  /** `:name` parameters, the syntax both fastify and msw understand. */
  path: string;
  handle: (state: MockState, request: MockRequest) => MockResult;
};

export const answer = (a: Answer): MockResult => ({ kind: 'answer', answer: a });
