/**
 * The field-reported scenarios (issue 11 §5) as the mock renders them and as the reference
 * transformer reads them: the bytes show the reported behaviour, and the briefings conserve the
 * text, announce each call once, ignore a state-only event and copy token usage (null, never 0).
 */
import { describe, expect, it } from 'vitest';
import { render } from '../mock-adk/core/render.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { createTransformer } from '../reference-impl/transformer/index.ts';
import type { BriefingEvent } from '../reference-impl/transformer/types.ts';

const byId = new Map(loadScenarios().scenarios.map((s) => [s.id, s]));
type Json = Record<string, unknown>;

function frames(id: string): Json[] {
  const s = byId.get(id);
  if (!s) throw new Error(`no scenario ${id}`);
  const plan = render(s, { dialect: s.dialect, streaming: s.request.streaming ?? false, appName: s.id, userId: s.session.userId, sessionId: s.session.sessionId });
  return plan.frames.map((f) => JSON.parse(f.data) as Json);
}

function briefings(id: string): BriefingEvent[] {
  const s = byId.get(id)!;
  const t = createTransformer({ sessionId: s.session.sessionId });
  for (const f of frames(id)) t.pushData(JSON.stringify(f));
  return t.end();
}

const parts = (f: Json): Json[] => ((f.content as { parts?: Json[] } | undefined)?.parts ?? []);
const texts = (f: Json): string => parts(f).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
const callIds = (f: Json): string[] => parts(f).flatMap((p) => (p.functionCall ? [(p.functionCall as Json).id as string] : []));
const narration = 'Let me pull the Cedar Creek perimeter first. I will summarise it once it returns.';

describe('text conservation (adk-docs PR #2076)', () => {
  it('adk-js streams no delta for the narration chunk that came with the call; the partial:false text event holds it', () => {
    const fs = frames('text_with_call_chunk');
    const streamed = fs.filter((f) => f.partial === true).map(texts).join('');
    expect(streamed.startsWith('Let me pull the Cedar Creek perimeter first. ')).toBe(true);
    expect(streamed).not.toContain('I will summarise it once it returns.');
    expect(fs.some((f) => f.partial === false && texts(f) === narration && callIds(f).length === 0)).toBe(true);
  });

  it('adk-python streams that chunk beside the call preview in one partial event', () => {
    const mixed = frames('text_with_call_chunk_python').find((f) => f.partial === true && callIds(f).length > 0);
    expect(mixed && texts(mixed)).toBe('I will summarise it once it returns.');
  });

  it.each(['text_with_call_chunk', 'text_with_call_chunk_python', 'text_with_call_nostream', 'text_with_call_nostream_python'])('%s: the narration is rendered once, whole, in the EXECUTING detail', (id) => {
    const events = briefings(id);
    const bodies = events.map((e) => e.content.detail ?? e.content.summary);
    expect(bodies.filter((b) => b.includes(narration))).toEqual([`${narration}\n\nRequest: {"fire_name":"Cedar Creek"}`]);
    expect(events.find((e) => e.state === 'EXECUTING')?.content.detail?.startsWith(narration)).toBe(true);
  });
});

describe('one announcement per logical call (ag-ui #968, adk-python #5064)', () => {
  it('the preview carries other adk- ids than the calls that run, and the results answer the run\'s ids', () => {
    const fs = frames('call_preview_reissued_ids_python');
    const preview = fs.find((f) => f.partial === true && callIds(f).length > 0)!;
    const run = fs.find((f) => f.partial === false && callIds(f).length > 0)!;
    const answered = parts(fs.find((f) => parts(f).some((p) => p.functionResponse))!).map((p) => (p.functionResponse as Json).id);
    expect(callIds(preview)).toHaveLength(2);
    expect(callIds(preview).some((id) => callIds(run).includes(id))).toBe(false);
    expect(answered).toEqual(callIds(run));
    expect(parts(preview).map((p) => (p.functionCall as Json).args)).toEqual(parts(run).map((p) => (p.functionCall as Json).args));
  });

  it('the reference announces each of the two calls once', () => {
    const announced = briefings('call_preview_reissued_ids_python').filter((e) => e.state === 'DELEGATING' || e.state === 'EXECUTING').map((e) => e.delegate_to);
    expect(announced).toEqual(['burn_analyst', 'get_fire_perimeter']);
  });
});

describe('an actions-only event is no final response (adk-python #2992, #7078)', () => {
  it.each(['state_only_first', 'state_only_first_streaming', 'state_only_first_python', 'state_only_first_python_streaming'])('%s: the first frame has only actions, and the reference gives THINKING and the answer', (id) => {
    const first = frames(id)[0]!;
    expect(first.content).toBeUndefined();
    expect((first.actions as Json).stateDelta).toEqual({ incident_id: 'cedar-creek-2022' });
    const events = briefings(id);
    expect(events.map((e) => [e.type, e.state])).toEqual([['STATUS', 'THINKING'], ['INSIGHT', 'COMPLETE']]);
    expect(events.at(-1)?.content.detail).toBe('The Cedar Creek fire burned 127,283 acres and is 100% contained.');
  });
});

describe('token usage is copied, never invented (adk-js #645)', () => {
  it('the adk-js 1.4 to 1.6 call turn carries no usageMetadata and no trailing usage report follows its tools', () => {
    const fs = frames('usage_missing_call_turn');
    expect(fs.filter((f) => callIds(f).length > 0).map((f) => f.usageMetadata)).toEqual([undefined]);
    expect(fs.filter((f) => f.content === undefined)).toEqual([]);
  });

  it('the reference reports the call turn\'s usage as null and copies the answer\'s', () => {
    const events = briefings('usage_missing_call_turn');
    expect(events.find((e) => e.state === 'EXECUTING')?.usage).toBeNull();
    expect(events.at(-1)?.usage).toEqual({ prompt_token_count: 120, candidates_token_count: 21, total_token_count: 141 });
  });

  it('usage goes on the first announcement of a call turn only, and never on a specialist\'s result', () => {
    const events = briefings('call_preview_reissued_ids_python');
    const announcements = events.filter((e) => e.state === 'DELEGATING' || e.state === 'EXECUTING');
    expect(announcements.map((e) => 'usage' in e)).toEqual([true, false]);
    expect(announcements[0]?.usage).toEqual({ prompt_token_count: 88, candidates_token_count: 24, total_token_count: 112 });
    expect(events.filter((e) => e.source_agent === 'burn_analyst').map((e) => 'usage' in e)).toEqual([false]);
  });
});
