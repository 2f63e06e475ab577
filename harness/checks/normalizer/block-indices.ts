/**
 * BLK-IDX-001: "ensure that unique, sequential `index` values are emitted ... for each distinct
 * conceptual content block" (seed 003 §1). The block starts of the output, in order, must carry
 * 0, 1, 2, ... (one per block start of the input turn, §3.1 "frontend_sse_index_allocator"), and
 * the scenario's `expect.blocks` starts must be among them.
 */
import type { CheckOutcome, Finding } from '../../model.ts';
import { at, brief, startTypes, type ActualEvent } from './actual.ts';
import type { ExpectedTurn } from './expected-model.ts';
import { outcomeOf } from './outcome.ts';
import type { TurnCase } from './types.ts';

const requirement = 'BLK-IDX-001';

export function checkBlockIndices(c: TurnCase, expected: ExpectedTurn, actual: readonly ActualEvent[]): CheckOutcome {
  const findings: Finding[] = [];
  const add = (code: string, path: string, message: string, exp?: unknown, act?: unknown) =>
    findings.push({ requirement, code, path, message, ...(exp !== undefined ? { expected: exp } : {}), ...(act !== undefined ? { actual: act } : {}) });

  const starts = actual.filter((e) => startTypes.has(e.type));
  const seen = new Map<number, number>();
  starts.forEach((e, ordinal) => {
    const index = e.data.index;
    if (typeof index !== 'number' || !Number.isInteger(index)) {
      add('index-missing', at(c, e.pos, '/data/index'), `${c.label}: block start ${ordinal} (${e.type}) carries no integer index`, ordinal, index ?? null);
      return;
    }
    const earlier = seen.get(index);
    if (earlier !== undefined) {
      add('index-reused', at(c, e.pos, '/data/index'), `${c.label}: block start ${ordinal} reuses index ${index}, already given to block start ${earlier}; every conceptual block needs its own index`, ordinal, index);
    } else if (index !== ordinal) {
      add('index-not-sequential', at(c, e.pos, '/data/index'), `${c.label}: block start ${ordinal} carries index ${index}; indices are allocated 0, 1, 2, ... in block order`, ordinal, index);
    }
    seen.set(index, ordinal);
    const want = expected.blocks[ordinal];
    if (!want) return;
    const wantType = want.kind === 'tool_use' ? 'tool_use_start' : 'text_block_start';
    if (e.type !== wantType) {
      add('block-type', at(c, e.pos, '/event_type'), `${c.label}: block ${ordinal} is a ${want.kind} block (input event ${want.input}), so its start is ${wantType}`, wantType, e.type);
    } else if (want.toolUseId !== undefined && e.data.tool_id !== want.toolUseId) {
      add('tool-id', at(c, e.pos, '/data/tool_id'), `${c.label}: tool_use_start of block ${ordinal} names tool_id ${JSON.stringify(e.data.tool_id)}, the input's content_block.id is ${JSON.stringify(want.toolUseId)}`, want.toolUseId, e.data.tool_id ?? null);
    }
  });
  if (starts.length !== expected.blocks.length) {
    add('block-count', `${c.pathPrefix}output`, `${c.label}: the input starts ${expected.blocks.length} conceptual blocks, the output starts ${starts.length}`, expected.blocks.length, starts.length);
  }

  for (const [i, entry] of (c.expectBlocks ?? []).entries()) {
    if (!startTypes.has(entry.type)) continue;
    const found = starts.some((e) => e.type === entry.type && e.data.index === entry.index && (entry.tool_use_id === undefined || e.data.tool_id === entry.tool_use_id));
    if (!found) {
      add('expected-block-missing', `/expect/blocks/${i}`, `${c.label}: no ${entry.type} with index ${entry.index}${entry.tool_use_id ? ` for ${entry.tool_use_id}` : ''} in the output`, entry, starts.map(brief));
    }
  }
  return outcomeOf(requirement, c.scenario, findings);
}
