/**
 * BLK-IDX-003: tool_use_input_complete, tool_result and tool_execution_error carry their
 * tool_use's index (seed 003 §3.1: "Use the `assigned_frontend_idx` (retrieved via
 * `tool_id_to_frontend_idx` using the `tool_use_id`) in the `index` field of these SSE events").
 *
 * The tool_use's index is the one the output's own tool_use_start with that tool_id carries, so a
 * wrong allocation stays BLK-IDX-001's finding; results may arrive in any order (parallel tools).
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { at, blockIndexer, brief, type ActualEvent } from './actual.ts';
import type { ExpectedTurn } from './expected-model.ts';
import { outcomeOf } from './outcome.ts';
import type { TurnCase } from './types.ts';

const requirement = 'BLK-IDX-003';
const recordTypes = new Set(['tool_use_input_complete', 'tool_result', 'tool_execution_error']);

/** Undefined when the turn uses no tool: the requirement is not exercised by it. */
export function checkToolIndices(c: TurnCase, expected: ExpectedTurn, actual: readonly ActualEvent[]): CheckOutcome | undefined {
  const records = expected.events.filter((e) => recordTypes.has(e.type));
  if (records.length === 0 && !(c.expectBlocks ?? []).some((b) => recordTypes.has(b.type))) return undefined;
  const findings: Finding[] = [];
  const add = (code: string, path: string, message: string, exp?: unknown, act?: unknown) =>
    findings.push({ requirement, code, path, message, ...(exp !== undefined ? { expected: exp } : {}), ...(act !== undefined ? { actual: act } : {}) });
  const indexOfBlock = blockIndexer(actual);
  const toolStart = (id: string) => actual.find((e) => e.type === 'tool_use_start' && e.data.tool_id === id);
  const used = new Set<number>();

  for (const exp of records) {
    const e = actual.find((a) => !used.has(a.pos) && a.type === exp.type && a.data.tool_use_id === exp.toolUseId);
    if (!e) {
      add('tool-record-missing', `${c.pathPrefix}input[${exp.input}]`, `${c.label}: input event ${exp.input} gives a ${exp.type} for tool_use ${exp.toolUseId}; the output has none`, { event_type: exp.type, tool_use_id: exp.toolUseId });
      continue;
    }
    used.add(e.pos);
    const start = toolStart(exp.toolUseId!);
    const startIndex = start?.data.index;
    const want = typeof startIndex === 'number' ? startIndex : indexOfBlock(exp.block!);
    if (want === undefined) continue;
    if (e.data.index !== want) {
      add('tool-record-index', at(c, e.pos, '/data/index'),
        `${c.label}: this ${e.type} for tool_use ${exp.toolUseId} carries index ${JSON.stringify(e.data.index ?? null)}, but the output started that tool_use with index ${want}`, want, e.data.index ?? null);
    }
  }

  for (const [i, entry] of (c.expectBlocks ?? []).entries()) {
    if (!recordTypes.has(entry.type)) continue;
    const found = actual.some((e) => e.type === entry.type && (entry.tool_use_id === undefined || e.data.tool_use_id === entry.tool_use_id));
    if (!found) add('expected-block-missing', `/expect/blocks/${i}`, `${c.label}: no ${entry.type}${entry.tool_use_id ? ` for ${entry.tool_use_id}` : ''} in the output`, entry, actual.filter((e) => recordTypes.has(e.type)).map(brief));
  }
  return outcomeOf(requirement, c.scenario, findings);
}
