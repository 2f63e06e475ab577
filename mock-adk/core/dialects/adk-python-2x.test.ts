/**
 * adk-python@2.x (api_server.py @024a4389, streaming_utils.py @11be7056): Gen C's bytes plus the
 * 2.x nodeInfo, streamed function-call arguments, and the structured error frame by default.
 */
import { describe, expect, it } from 'vitest';
import { render } from '../render.ts';
import { ctx, events, keys, oneTool, plainText, runScenario } from '../test-scenarios.ts';
import { partialArgsOf } from './adk-python-2x.ts';
import { getDialect, resolveDialect } from './index.ts';

const D = 'adk-python@2.x' as const;
const scenario = (steps: Parameters<typeof runScenario>[0]) => runScenario(steps, { dialect: D });

describe('adk-python@2.x events', () => {
  it('ends every event with nodeInfo {path:"", executionId:""}', () => {
    const plan = render(scenario(oneTool), ctx(D, false));
    for (const f of plan.frames) expect(keys(f.data).at(-1)).toBe('nodeInfo');
    expect(plan.frames[0]!.data).toMatch(/"timestamp":\d+\.\d+,"nodeInfo":\{"path":"","executionId":""\}\}$/);
  });

  it('renders text streaming as Gen C does, plus nodeInfo', () => {
    const evs = events(render(scenario(plainText), ctx(D, true)));
    expect(evs.map((e) => e.partial)).toEqual([true, true, true, true, false]);
  });
});

describe('adk-python@2.x streamed function-call arguments', () => {
  it('sends a name chunk, then one partialArgs chunk per argument under fresh ids, then the aggregate under the first id', () => {
    const plan = render(scenario(oneTool), ctx(D, true));
    const evs = events(plan);
    const call = (i: number) => ((evs[i]!.content as { parts: Array<{ functionCall: Record<string, unknown> }> }).parts[0]!.functionCall);
    expect(evs[0]).toMatchObject({ partial: true });
    expect(Object.keys(call(0))).toEqual(['id', 'name', 'willContinue']);
    expect(call(0)).toMatchObject({ name: 'get_fire_perimeter', willContinue: true });
    expect(plan.frames[1]!.data).toContain('"partialArgs":[{"stringValue":"Cedar Creek","jsonPath":"$.fire_name"}]');
    expect(call(1)).not.toHaveProperty('willContinue');
    expect(call(1).id).not.toBe(call(0).id);
    expect(evs[2]).toMatchObject({ partial: false });
    expect(call(2)).toEqual({ id: call(0).id, args: { fire_name: 'Cedar Creek' }, name: 'get_fire_perimeter' });
    expect(evs[1]).toMatchObject({ finishReason: 'STOP', longRunningToolIds: [] });
  });

  it('gives nested, numeric, boolean and null leaves their own PartialArg with an RFC 9535 path', () => {
    expect(partialArgsOf({ a: { b: 1 }, c: [true], d: null })).toEqual([
      { numberValue: expect.anything(), jsonPath: '$.a.b' }, { boolValue: true, jsonPath: '$.c[0]' }, { nullValue: 'NULL_VALUE', jsonPath: '$.d' },
    ]);
  });
});

describe('adk-python@2.x errors and names', () => {
  it('writes the structured error frame by default', () => {
    const f = render(scenario([{ errorFrame: { message: 'boom' } }]), ctx(D, false)).frames[0]!;
    expect(f.data).toMatch(/^\{"error": "ValueError: boom", "error_details": \{"error_type": "ValueError", "error_message": "boom", "timestamp": \d+\.\d+\}\}$/);
  });

  it('resolves versioned names and aliases', () => {
    expect(resolveDialect('adk-python@1.x-genC')).toBe('adk-python');
    expect(resolveDialect('adk-js@2.0')).toBe('adk-js');
    expect(resolveDialect('adk-python')).toBe('adk-python');
    expect(getDialect(D).name).toBe(D);
    expect(() => getDialect('adk-python@3')).toThrow(/adk-python@2\.x, adk-go@2\.0\.0/);
  });
});
