/**
 * A recording is only written when it passes the corpus linter the way `lint-scenarios` runs it
 * (schema, statements, expectations against the mock's renderer), so a recorded file is a corpus
 * file like any other. Spec references resolve only where the shared seeds are present: their
 * absence is the installation's business, not the recording's.
 */
import { renderAnthropicCall } from '../mock-adk/core/anthropic.ts';
import { applyFaults, faultNames } from '../mock-adk/core/faults.ts';
import { render } from '../mock-adk/core/render.ts';
import { lintScenarios, type LintIssue } from '../scenarios/lint.ts';

export function lintRecording(scenario: unknown, file: string): LintIssue[] {
  return lintScenarios([scenario], [file], { render, applyFaults, renderAnthropicCall, faultNames })
    .filter((issue) => issue.rule !== 'shared-docs-missing');
}
