/**
 * Audit bridge mutants, given the way a team gives its bridge: module mutants through
 * `--audit-bridge-module` (the reference with one defect), command mutants through
 * `--audit-bridge-cmd` (examples/python-audit-bridge/bridge.py with one defect, python/), for the
 * failure modes the command contract adds: a bridge that never evicts, an entry count that is not
 * the bridge's, the seed's published clearing rule, answers out of request order. Proven by
 * harness/mutants/audit-bridge.mutants.test.ts.
 */
import { fileURLToPath } from 'node:url';
import type { Mutant } from '../types.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const quote = (s: string) => (/^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

const moduleMutant = (id: string, file: string, description: string, kills: string[]): Mutant => ({
  id, part: 'audit-bridge', description, kills, target: { auditBridge: { module: here(file) } },
});
const commandMutant = (id: string, file: string, description: string, kills: string[]): Mutant => ({
  id, part: 'audit-bridge', description, kills, target: { auditBridge: { command: `python3 -B ${quote(here(file))}` } },
});

export const auditBridgeMutants: Mutant[] = [
  moduleMutant('audit-bridge-never-clears', './never-clears.ts', 'the bridge ignores final events and clearInvocation, so ended invocations stay until the bound evicts them', ['AUD-MEM-001']),
  moduleMutant('audit-bridge-ignores-bound', './ignores-bound.ts', 'the bridge ignores maxInvocations and maxEventsPerInvocation', ['AUD-MEM-001']),
  moduleMutant('audit-bridge-returns-other-trail', './returns-other-trail.ts', 'getAuditTrail returns the trail of the invocation recorded to last instead of the one asked for', ['AUD-TRAIL-001']),
  moduleMutant('audit-bridge-clears-on-finish-reason', './clears-on-finish-reason.ts', 'any event with a finishReason is taken as final, so a streamed chunk, a thought or text beside a call clears the invocation early', ['AUD-MEM-001']),
  commandMutant('audit-bridge-cmd-never-evicts', './python/never-evicts.py', 'the Python bridge command ignores both bounds, so cut invocations pile up', ['AUD-MEM-001']),
  commandMutant('audit-bridge-cmd-entry-count-wrong', './python/entry-count-wrong.py', 'the Python bridge command answers entry_count with the invocations held as the events held', ['AUD-MEM-001']),
  commandMutant('audit-bridge-cmd-clears-when-not-partial', './python/clears-when-not-partial.py', 'the Python bridge command clears on `partial == False` (seed 000 §8 decision 2 as published), so an invocation ended by a model error (no partial) is never freed', ['AUD-MEM-001']),
  commandMutant('audit-bridge-cmd-drops-confidence-calc', './python/drops-confidence-calc.py', 'the Python bridge command files six of the 7 core audit event types and drops confidence_calc', ['AUD-TRAIL-001']),
  commandMutant('audit-bridge-cmd-drops-split-line', './python/drops-split-line.py', 'the Python bridge command takes each read as whole lines, so a request split across two reads is lost', ['AUD-TRAIL-001']),
  commandMutant('audit-bridge-cmd-answers-out-of-order', './python/answers-out-of-order.py', 'the Python bridge command answers pipelined requests in swapped pairs, not in request order', ['AUD-MEM-001']),
];
