/**
 * Audit bridge mutants, given the way a team gives its bridge: module mutants through
 * `--audit-bridge-module` (the reference with one defect), command mutants through
 * `--audit-bridge-cmd` (examples/python-audit-bridge/bridge.py or seed_bridge.py with one defect,
 * python/), for the failure modes the command contract adds: a bridge that never evicts, an entry
 * count that is not the bridge's, the seed's published clearing rule, answers out of request order;
 * bridges of seed 000 §2.2A's shape, in TypeScript and Python; and what a full bridge drops, which
 * key it files by and which order it keeps (issue 29). Proven by
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
  moduleMutant('audit-bridge-never-clears', './never-clears.ts', 'the bridge ignores final events and clearInvocation, so ended invocations stay until the bound evicts them', ['AUD-MEM-002']),
  moduleMutant('audit-bridge-ignores-bound', './ignores-bound.ts', 'the bridge ignores maxInvocations and maxEventsPerInvocation', ['AUD-MEM-002']),
  moduleMutant('audit-bridge-returns-other-trail', './returns-other-trail.ts', 'getAuditTrail returns the trail of the invocation recorded to last instead of the one asked for', ['AUD-TRAIL-003']),
  moduleMutant('audit-bridge-clears-on-finish-reason', './clears-on-finish-reason.ts', 'any event with a finishReason is taken as final, so a streamed chunk (partial: true) clears the invocation where neither ADK nor seed 000 §8 ends it, and a function call (partial: false) before the final answer', ['AUD-TRAIL-003', 'AUD-CLEAR-001']),
  moduleMutant('audit-bridge-seed-other-trail', './seed-other-trail.ts', 'a bridge of seed 000 §2.2A\'s shape in TypeScript whose get_audit_trail answers the trail of the invocation recorded to last', ['AUD-TRAIL-003']),
  commandMutant('audit-bridge-cmd-never-evicts', './python/never-evicts.py', 'the Python bridge command ignores both bounds, so cut invocations pile up', ['AUD-MEM-002']),
  commandMutant('audit-bridge-cmd-entry-count-wrong', './python/entry-count-wrong.py', 'the Python bridge command answers entry_count with the invocations held as the events held', ['AUD-MEM-002']),
  commandMutant('audit-bridge-cmd-clears-when-not-partial', './python/clears-when-not-partial.py', 'the Python bridge command clears on `partial == False` (seed 000 §8 decision 2 as published), so a second tool call clears the first tool\'s trail before the final answer', ['AUD-CLEAR-001']),
  commandMutant('audit-bridge-cmd-seed-section-8', './python/seed-section-8.py', 'the bridge of seed 000 §2.2A\'s shape (examples/python-audit-bridge/seed_bridge.py) with seed 000 §8\'s `if event.partial == False` as its clearing step', ['AUD-CLEAR-001']),
  commandMutant('audit-bridge-cmd-seed-never-clears', './python/seed-never-clears.py', 'the bridge of seed 000 §2.2A\'s shape whose clear_invocation forgets nothing, so ended invocations leak', ['AUD-MEM-002']),
  commandMutant('audit-bridge-cmd-drops-confidence-calc', './python/drops-confidence-calc.py', 'the Python bridge command files six of the 7 core audit event types and drops confidence_calc', ['AUD-TRAIL-003']),
  commandMutant('audit-bridge-cmd-drops-split-line', './python/drops-split-line.py', 'the Python bridge command takes each read as whole lines, so a request split across two reads is lost', ['AUD-TRAIL-003']),
  moduleMutant('audit-bridge-evicts-first-opened', './evicts-first-opened.ts', 'at maxInvocations the bridge evicts the invocation opened first, however recently it was recorded to (FIFO, not least recently recorded-to)', ['AUD-EVICT-001']),
  moduleMutant('audit-bridge-sorts-by-timestamp', './sorts-by-timestamp.ts', 'getAuditTrail answers the trail sorted by timestamp, not in record order', ['AUD-ORDER-001']),
  commandMutant('audit-bridge-cmd-evicts-recent', './python/evicts-recent.py', 'at max_invocations the Python bridge command evicts the invocation recorded to most recently', ['AUD-EVICT-001']),
  commandMutant('audit-bridge-cmd-keeps-first-events', './python/keeps-first-events.py', 'at max_events_per_invocation the Python bridge command refuses new events, so a trail keeps its first events', ['AUD-TRIM-001']),
  commandMutant('audit-bridge-cmd-keys-by-correlation', './python/keys-by-correlation.py', 'the Python bridge command files an audit event under its correlation_id when it has one, so the trail asked for by invocationId is empty when correlation_id is the session\'s thread', ['AUD-KEY-001']),
  commandMutant('audit-bridge-cmd-answers-out-of-order', './python/answers-out-of-order.py', 'the Python bridge command answers pipelined requests in swapped pairs, not in request order', ['AUD-MEM-002']),
];
