/**
 * /run_sse_enhanced (seed 000 §2.2B): `_audit_metadata` as each event's last key, the trail of its
 * invocation at that moment, cleared after the final event, and `data: [DONE]` at the end.
 */
import { describe, expect, it } from 'vitest';
import { render } from './render.ts';
import { bodyText, ctx, events, keys, runScenario } from './test-scenarios.ts';
import type { Dialect } from './types.ts';

const audited = runScenario([
  { model: { author: 'trail_assessor', calls: [{ name: 'classify_damage', args: { fire_id: 'cedar-creek-2022' } }] } },
  {
    audit: [
      { event_type: 'tool_invocation', agent: 'trail_assessor', tool: 'classify_damage' },
      { event_type: 'tool_response', agent: 'trail_assessor', tool: 'classify_damage', confidence: 0.9, invocation_id: 'e-other' },
    ],
    tools: { author: 'trail_assessor', responses: [{ name: 'classify_damage', response: { confidence: 0.9 } }] },
  },
  { model: { author: 'trail_assessor', text: 'WL-001 is a TYPE_IV washout.' } },
  { audit: [{ event_type: 'reasoning_step', agent: 'trail_assessor' }], model: { author: 'trail_assessor', text: 'A second answer.' } },
], { upstream: { invocationId: 'e-run' } });

describe('enhanced rendering', () => {
  for (const dialect of ['adk-js', 'adk-python'] as Dialect[]) {
    it(`appends _audit_metadata as the last key and ends with [DONE] (${dialect})`, () => {
      const plan = render(audited, ctx(dialect, false, { enhanced: true }));
      expect(plan.frames.slice(0, -1).map((f) => keys(f.data).at(-1))).toEqual(Array(4).fill('_audit_metadata'));
      expect(plan.frames.at(-1)).toEqual({ data: '[DONE]', kind: 'raw' });
      expect(bodyText(plan).endsWith('data: [DONE]\n\n')).toBe(true);
    });
  }

  it('shows the trail recorded so far, gives unnamed audit events the run\'s invocation, and clears after the final event', () => {
    const trails = events(render(audited, ctx('adk-js', false, { enhanced: true }))).slice(0, 4).map((e) => e._audit_metadata as Array<Record<string, unknown>>);
    expect(trails[0]).toEqual([]);
    expect(trails[1]).toEqual([{ event_type: 'tool_invocation', agent: 'trail_assessor', tool: 'classify_damage', correlation_id: 'e-run' }]);
    expect(trails[2]).toHaveLength(1);
    // The first answer was final: the bridge cleared e-run, so the next step's trail starts afresh.
    expect(trails[3]).toEqual([{ event_type: 'reasoning_step', agent: 'trail_assessor', correlation_id: 'e-run' }]);
  });

  it('leaves plain /run_sse without audit metadata or [DONE]', () => {
    const plan = render(audited, ctx('adk-js', false));
    expect(plan.frames).toHaveLength(4);
    expect(bodyText(plan)).not.toContain('_audit_metadata');
  });
});
