/**
 * The kit inside a team's own vitest run: two matchers and a one-call suite.
 *
 *   import { runConformanceSuite } from 'adk-conformance/vitest'; // registers the matchers
 *   const result = await runConformanceSuite({ transformer: { command: 'python3 t.py' } });
 *   expect(result).toSatisfyRequirement('ABE-TERM-001');
 *   expect(myEvent).toBeValidAgentBriefingEvent();
 *
 * Importing this module registers the matchers with vitest's `expect` (`adkMatchers` is the same
 * object, for `expect.extend` elsewhere). Failure messages list the findings with their replay lines.
 */
import { expect } from 'vitest';
import { validate } from '../schemas/registry.ts';
import type { CheckOutcome, Finding, RunResult } from './model.ts';
import { requirements } from './requirements/index.ts';

type MatcherResult = { pass: boolean; message: () => string };

const isRunResult = (value: unknown): value is RunResult => typeof value === 'object' && value !== null && Array.isArray((value as RunResult).requirements) && typeof (value as RunResult).verdict === 'string';
const isOutcomes = (value: unknown): value is CheckOutcome[] => Array.isArray(value) && value.every((o) => typeof o === 'object' && o !== null && typeof (o as CheckOutcome).requirement === 'string' && typeof (o as CheckOutcome).status === 'string');

function describeFindings(findings: Finding[]): string {
  return findings.slice(0, 5).map((f) => `  - ${f.scenario ? `${f.scenario} ` : ''}${f.path}: ${f.message}${f.replay ? `\n    replay: ${f.replay}` : ''}`).join('\n');
}

export const adkMatchers = {
  /** The value is valid against schemas/agent-briefing-event.schema.json (every error listed, with its JSON pointer). */
  toBeValidAgentBriefingEvent(received: unknown): MatcherResult {
    const { valid, errors } = validate('agent-briefing-event', received);
    return {
      pass: valid,
      message: () => (valid
        ? 'expected the value not to be a valid AgentBriefingEvent, but it is'
        : `expected a valid AgentBriefingEvent (seed 002 §2):\n${errors.map((e) => `  - ${e.path || '/'} ${e.message}`).join('\n')}`),
    };
  },

  /**
   * The requirement is satisfied: in a RunResult its status is `passed`; in a list of check
   * outcomes it was exercised (some outcome passed) and no outcome failed. Untested never passes.
   */
  toSatisfyRequirement(received: unknown, id: string): MatcherResult {
    if (typeof id !== 'string' || !requirements.has(id)) {
      throw new TypeError(`toSatisfyRequirement: '${String(id)}' is not a requirement id; see docs/requirements.md`);
    }
    if (isRunResult(received)) {
      const r = received.requirements.find((x) => x.id === id);
      const status = r?.status ?? 'absent from the run';
      return {
        pass: status === 'passed',
        message: () => (status === 'passed'
          ? `expected ${id} not to be satisfied, but it passed`
          : `expected ${id} to be satisfied, but it is ${status}${r?.reason ? ` (${r.reason})` : ''}${r?.findings.length ? `:\n${describeFindings(r.findings)}` : ''}`),
      };
    }
    if (isOutcomes(received)) {
      const mine = received.filter((o) => o.requirement === id);
      const failed = mine.filter((o) => o.status === 'failed');
      const pass = failed.length === 0 && mine.some((o) => o.status === 'passed');
      const why = failed.length > 0 ? `it failed:\n${describeFindings(failed.flatMap((o) => o.findings))}` : mine.length === 0 ? 'no outcome names it' : `it is untested (${[...new Set(mine.map((o) => o.reason))].join('; ')})`;
      return { pass, message: () => (pass ? `expected ${id} not to be satisfied, but it passed` : `expected ${id} to be satisfied, but ${why}`) };
    }
    throw new TypeError('toSatisfyRequirement: expect(...) takes a RunResult (runConformanceSuite) or a CheckOutcome[] (a check\'s result)');
  },
};

expect.extend(adkMatchers);

declare module 'vitest' {
  interface Assertion<T> {
    toBeValidAgentBriefingEvent(): T;
    toSatisfyRequirement(id: string): T;
  }
  interface AsymmetricMatchersContaining {
    toBeValidAgentBriefingEvent(): unknown;
    toSatisfyRequirement(id: string): unknown;
  }
}

/** The one-call suite is part of this entry (`adk-conformance/vitest`); it lives in suite.ts, which needs no vitest. */
export { runConformanceSuite, type SuiteOptions } from './suite.ts';
