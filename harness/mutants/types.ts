/**
 * A mutant is a small, deliberately broken variant of the reference implementation. Each one names
 * the requirements the harness must report as failed when it certifies the mutant, exactly: a
 * mutant the harness does not catch proves a check that cannot fail; a requirement no mutant
 * kills is reported as unproven.
 */
import type { Part } from '../model.ts';
import type { TargetSpec } from '../targets/spec.ts';

export type Mutant = {
  /** kebab-case, unique, e.g. `transformer-drops-correlation-id`. */
  id: string;
  part: Part;
  /** What is broken, as a statement. */
  description: string;
  /** The requirement ids the harness must report as failed, and no others. */
  kills: string[];
  /** How to run it: the same target flags a team would use (command or module). */
  target: Omit<TargetSpec, 'reference' | 'mockPort'> & { mockPort?: number };
};

/**
 * The isolation probe's longest prior history in the mutant suites where ABE-ISO-001 / CLI-ISO-001
 * is not what a certification proves (runner option `isolationHistory`; a certification searches
 * 1,000): the probe still runs, at a tenth of its cost, as the suites already measure memory over
 * fewer runs.
 */
export const mutantIsolationHistory = 100;
