import { describe, expect, it } from 'vitest';
import { validate } from '../../schemas/registry.ts';
import { cedarCreekSteps, comparable, renderRun, type RenderOptions, type Step } from '../../test/transformer-fixtures.ts';
import { createTransformer, type TransformerConfig } from './create-transformer.ts';
import type { BriefingEvent } from './types.ts';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const renderings: RenderOptions[] = [
  { dialect: 'adk-js', streaming: false }, { dialect: 'adk-js', streaming: true },
  { dialect: 'adk-python', streaming: false }, { dialect: 'adk-python', streaming: true },
];

function transform(frames: string[], config: TransformerConfig = { sessionId: 's-cedar' }, end?: Parameters<ReturnType<typeof createTransformer>['end']>[0]): BriefingEvent[] {
  const t = createTransformer(config);
  for (const f of frames) t.pushData(f);
  return t.end(end);
}
const run = (steps: Step[], options: RenderOptions = { dialect: 'adk-js', streaming: false }, config?: TransformerConfig) => transform(renderRun(steps, options), config);
const terminal = (events: BriefingEvent[]) => events.filter((e) => e.state === 'COMPLETE' || e.state === 'ERROR');
const states = (events: BriefingEvent[]) => events.map((e) => e.state ?? e.type);

describe('the Cedar Creek run (seed 001)', () => {
  it.each(renderings)('%o gives the 4 specialist insights at 0.92, 0.90, 0.91, 0.95 and a COMPLETE insight at 0.90', (options) => {
    const events = run(cedarCreekSteps, options);
    const insights = events.filter((e) => e.type === 'INSIGHT' && e.state === undefined).slice(0, 4);
    expect(insights.map((e) => [e.source_agent, e.proof_layer?.confidence])).toEqual([['burn_analyst', 0.92], ['trail_assessor', 0.9], ['cruising_assistant', 0.91], ['nepa_advisor', 0.95]]);
    expect(insights.map((e) => e.proof_layer?.citations.map((c) => c.source))).toEqual([
      ['MTBS'], ['Cedar Creek field assessment 2022-10-25'],
      ['Cedar Creek timber plot data', 'PNW salvage deterioration models', 'Regional market analysis 2025'],
      ['36 CFR 220.6(e)(13)', '36 CFR 220.7', 'FSM 1950'],
    ]);
    const complete = events[events.length - 1] as BriefingEvent;
    expect(complete).toMatchObject({ type: 'INSIGHT', state: 'COMPLETE', source_agent: 'coordinator', proof_layer: { confidence: 0.9 } });
  });

  it('every event is valid against the AgentBriefingEvent schema, with a unique UUID and the session as correlation_id', () => {
    const events = run(cedarCreekSteps, { dialect: 'adk-python', streaming: true });
    for (const e of events) expect(validate('agent-briefing-event', e)).toEqual({ valid: true, errors: [] });
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
    expect(events.every((e) => uuidV4.test(e.event_id) && e.correlation_id === 's-cedar')).toBe(true);
  });

  it("each specialist insight names the DELEGATING event that asked for it as parent (by functionCall id)", () => {
    const events = run(cedarCreekSteps);
    const byId = new Map(events.map((e) => [e.event_id, e]));
    for (const insight of events.filter((e) => e.type === 'INSIGHT' && e.state === undefined)) {
      const parent = byId.get(insight.parent_event_id as string);
      expect(parent).toMatchObject({ state: 'DELEGATING', delegate_to: insight.source_agent });
      expect(parent?.sequence).toBeLessThan(insight.sequence);
    }
  });

  it('the lifecycle runs THINKING, DELEGATING x4, 4 insights, DELEGATING x2, 2 insights, SYNTHESIZING, COMPLETE', () => {
    expect(states(run(cedarCreekSteps))).toEqual(['THINKING', ...Array(4).fill('DELEGATING'), ...Array(4).fill('INSIGHT'), 'DELEGATING', 'DELEGATING', 'INSIGHT', 'INSIGHT', 'SYNTHESIZING', 'COMPLETE']);
  });

  it('both dialects, streaming or not, give the same briefings (modulo ids and timestamps)', () => {
    const [first, ...others] = renderings.map((options) => comparable(run(cedarCreekSteps, options)));
    for (const other of others) expect(other).toEqual(first);
  });

  it('the narration before the calls appears once, in the first DELEGATING detail, in every rendering', () => {
    for (const options of renderings) {
      const events = run(cedarCreekSteps, options);
      expect(events.filter((e) => e.content.detail?.includes('Delegating to all four specialists.')).map((e) => e.delegate_to)).toEqual(['burn_analyst']);
    }
  });

  it('streamed text is never emitted as fragments or twice: the final text appears in exactly one event', () => {
    const events = run(cedarCreekSteps, { dialect: 'adk-js', streaming: true });
    const finalText = (cedarCreekSteps[4] as { model: { text: string } }).model.text;
    expect(events.filter((e) => JSON.stringify(e).includes(JSON.stringify(finalText).slice(1, 40)))).toHaveLength(1);
  });

  it("the COMPLETE insight's reasoning chain is the observed run and its citations the specialists' sources", () => {
    const complete = run(cedarCreekSteps).at(-1) as BriefingEvent;
    expect(complete.proof_layer?.reasoning_chain[0]).toBe('coordinator delegated to burn_analyst: fire_id:cedar-creek-2022');
    expect(complete.proof_layer?.reasoning_chain).toContain('nepa_advisor answered (confidence 0.95)');
    expect(complete.proof_layer?.citations.map((c) => c.source)).toContain('MTBS');
  });
});

describe('lifecycle mapping (docs/briefing-mapping.md)', () => {
  it('a plain tool call is EXECUTING with the tool as skill_id, and its result is no insight', () => {
    const events = run([
      { model: { author: 'assistant', calls: [{ name: 'get_fire_perimeter', args: { fire_name: 'Cedar Creek' } }] } },
      { tools: { author: 'assistant', responses: [{ name: 'get_fire_perimeter', response: { acres: 127283 } }] } },
      { model: { author: 'assistant', text: 'It burned 127,283 acres.\n\n**Confidence:** 93%' } },
    ]);
    expect(states(events)).toEqual(['THINKING', 'EXECUTING', 'SYNTHESIZING', 'COMPLETE']);
    expect(events[1]).toMatchObject({ skill_id: 'get_fire_perimeter', delegate_to: 'get_fire_perimeter', content: { detail: 'Request: {"fire_name":"Cedar Creek"}' } });
    expect(events[3]?.proof_layer?.confidence).toBe(0.93);
  });

  it('a configured specialist list decides delegation over the argument shape', () => {
    const steps: Step[] = [{ model: { author: 'c', calls: [{ name: 'burn_analyst', args: { fire_id: 'x' } }] } }, { tools: { author: 'c', responses: [{ name: 'burn_analyst', response: { result: 'High.\n**Confidence:** 92%' } }] } }, { model: { author: 'c', text: 'Done.' } }];
    expect(states(run(steps))).toContain('EXECUTING');
    const events = run(steps, undefined, { sessionId: 's', specialists: ['burn_analyst'] });
    expect(states(events).slice(0, 3)).toEqual(['THINKING', 'DELEGATING', 'INSIGHT']);
  });

  it('a tool failure is an ALERT at confidence 0.0 with a tier 4 notice, and the run goes on to COMPLETE', () => {
    const events = run([
      { model: { author: 'burn_analyst', calls: [{ name: 'fetch_mtbs_severity', args: { fire: 'cedar' } }] } },
      { tools: { author: 'burn_analyst', responses: [{ name: 'fetch_mtbs_severity', response: { error: "Error in tool 'fetch_mtbs_severity': MTBS service unavailable (HTTP 503)" } }] } },
      { model: { author: 'burn_analyst', text: 'MTBS is unavailable; no severity estimate.' } },
    ]);
    const alert = events.find((e) => e.type === 'ALERT');
    expect(alert).toMatchObject({ source_agent: 'burn_analyst', skill_id: 'fetch_mtbs_severity', proof_layer: { confidence: 0 }, error: { source: 'tool' } });
    expect(alert?.content.degradation_notice).toMatch(/^Tier 4/);
    expect(alert?.parent_event_id).toBe(events.find((e) => e.state === 'EXECUTING')?.event_id);
    expect(terminal(events).map((e) => e.state)).toEqual(['COMPLETE']);
  });

  it.each(['adk-js', 'adk-python'] as const)('a transfer (%s argument name) is a DELEGATING naming the target, which thinks and answers', (dialect) => {
    const argKey = dialect === 'adk-js' ? 'agentName' : 'agent_name';
    const events = run([
      { model: { author: 'coordinator', calls: [{ name: 'transfer_to_agent', args: { [argKey]: 'trail_assessor' } }] } },
      { tools: { author: 'coordinator', responses: [{ name: 'transfer_to_agent', response: { result: 'Transfer queued' } }], transferToAgent: 'trail_assessor' } },
      { model: { author: 'trail_assessor', text: 'WL-001 is closed.\n\n**Confidence:** 90%' } },
    ], { dialect, streaming: false }, {});
    expect(events.map((e) => [e.state ?? e.type, e.source_agent])).toEqual([['THINKING', 'coordinator'], ['DELEGATING', 'coordinator'], ['THINKING', 'trail_assessor'], ['COMPLETE', 'trail_assessor']]);
    expect(events[1]?.delegate_to).toBe('trail_assessor');
    // Without a session id, the invocation id correlates, and a transfer keeps it.
    expect(new Set(events.map((e) => e.correlation_id))).toEqual(new Set(['e-3f0d0c4e-7f1b-4c8e-9a55-1b2c3d4e5f60']));
  });

  it("a coordinator re-invoked after the sub-agent's answer (adk-js quirk) makes that answer an insight and its own the COMPLETE one", () => {
    const events = run([
      { model: { author: 'coordinator', calls: [{ name: 'transfer_to_agent', args: { agentName: 'trail_assessor' } }] } },
      { tools: { author: 'coordinator', responses: [{ name: 'transfer_to_agent', response: { result: 'Transfer queued' } }], transferToAgent: 'trail_assessor' } },
      { model: { author: 'trail_assessor', text: 'WL-001 is closed.' } },
      { model: { author: 'coordinator', text: 'Trail assessor reports WL-001 closed.' } },
    ], { dialect: 'adk-js', streaming: true });
    expect(events.filter((e) => e.type === 'INSIGHT').map((e) => [e.source_agent, e.state])).toEqual([['trail_assessor', undefined], ['coordinator', 'COMPLETE']]);
    expect(terminal(events)).toHaveLength(1);
  });

  it('skipSummarization makes the specialist result the COMPLETE insight, emitted once', () => {
    const events = run([
      { model: { author: 'coordinator', calls: [{ name: 'burn_analyst', args: { request: 'severity' } }] } },
      { tools: { author: 'coordinator', responses: [{ name: 'burn_analyst', response: { result: 'High severity.\n**Confidence:** 92%' } }], skipSummarization: true } },
    ]);
    expect(states(events)).toEqual(['THINKING', 'DELEGATING', 'COMPLETE']);
    expect(events[2]).toMatchObject({ source_agent: 'burn_analyst', parent_event_id: events[1]?.event_id, proof_layer: { confidence: 0.92 } });
  });

  it('an answer without any stated confidence carries none, and a notice that says why', () => {
    const complete = run([{ model: { author: 'assistant', text: 'The fire is contained.' } }]).at(-1) as BriefingEvent;
    expect(complete.proof_layer).not.toHaveProperty('confidence');
    expect(complete.content.degradation_notice).toBe('No confidence score: the text states no confidence. None is inferred (seed 000 §1.2).');
  });

  it('a specialist at tier 2 carries a degradation notice', () => {
    const insight = run(cedarCreekSteps).find((e) => e.proof_layer?.confidence === 0.88);
    expect(insight?.content.degradation_notice).toMatch(/^Tier 2 \(Derived\)/);
  });
});

describe('errors and endings: exactly one terminal event, last', () => {
  it.each(['adk-js', 'adk-python'] as const)('an %s error frame becomes an ERROR status with a suggestion', (dialect) => {
    const events = run([{ model: { author: 'coordinator', calls: [{ name: 'burn_analyst', args: { request: 'x' } }] } }, { errorFrame: { message: 'Session not found: s-1' } }], { dialect, streaming: false });
    expect(events.at(-1)).toMatchObject({ type: 'STATUS', state: 'ERROR', error: { source: 'error-frame', message: 'Session not found: s-1' }, content: { summary: 'Error: Session not found: s-1' } });
    expect(events.at(-1)?.content.detail).toMatch(/Create it/);
    expect(terminal(events)).toHaveLength(1);
  });

  it('frames after the terminal event are ignored', () => {
    const t = createTransformer({ sessionId: 's' });
    t.pushData('{"error":"boom"}');
    t.pushData(renderRun([{ model: { author: 'a', text: 'late' } }], { dialect: 'adk-js', streaming: false })[0] as string);
    expect(t.done()).toBe(true);
    expect(t.end()).toHaveLength(1);
  });

  it.each([
    ['TIMEOUT', '{"error":"Request timeout after 300 seconds","error_code":"TIMEOUT","timestamp":1729350300.123}', /300 s/],
    ['HTTP_500', '{"error":"ADK upstream error: 500","status_code":500,"detail":"Internal Server Error","timestamp":1}', /Retry in a moment/],
    ['STREAM_ERROR', '{"error":"Stream error description","error_code":"STREAM_ERROR","timestamp":1}', /connection to the agent service broke/],
  ])('the gateway %s frame is an ERROR with its own suggestion', (code, frame, suggestion) => {
    const events = transform([frame]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ state: 'ERROR', error: { code } });
    expect(events[0]?.content.detail).toMatch(suggestion);
  });

  it("Python Gen A's unescaped error line is still an ERROR", () => {
    expect(transform(['{"error": "bad "quote""}'])[0]).toMatchObject({ state: 'ERROR', error: { message: 'bad "quote"' } });
  });

  it('an errorCode event that ends the run is the ERROR (adk-wire-format §6)', () => {
    const events = run([{ model: { author: 'coordinator', calls: [{ name: 'get_fire_perimeter', args: { x: 1 } }] } }, { tools: { author: 'coordinator', responses: [{ name: 'get_fire_perimeter', response: { acres: 1 } }] } }, { modelError: { author: 'coordinator', errorCode: '500', errorMessage: 'An internal error has occurred.' } }]);
    expect(events.at(-1)).toMatchObject({ state: 'ERROR', error: { source: 'error-code', code: '500' } });
    expect(terminal(events)).toHaveLength(1);
  });

  it('an errorCode event the agent recovers from (unknown tool, then an answer) is an ALERT, and the answer COMPLETE', () => {
    const events = run([{ model: { author: 'coordinator', calls: [{ name: 'nonexistent_tool', args: { x: 1 } }] } }, { modelError: { author: 'coordinator', errorCode: 'UNKNOWN_ERROR', errorMessage: 'Function nonexistent_tool is not found in the toolsDict.' } }, { model: { author: 'coordinator', text: 'Summary.' } }]);
    expect(states(events)).toEqual(['THINKING', 'EXECUTING', 'ALERT', 'COMPLETE']);
    expect(events[2]?.content.detail).toMatch(/tool that does not exist/);
  });

  it('a safety block is an ALERT, then the ERROR', () => {
    const events = run([{ modelError: { author: 'coordinator', errorCode: 'SAFETY', errorMessage: 'Response blocked for safety reasons.' } }]);
    expect(states(events)).toEqual(['THINKING', 'ALERT', 'ERROR']);
  });

  it('a stream cut after partial chunks ends with one ERROR naming the unfinished text, and no fragment', () => {
    const frames = renderRun([{ model: { author: 'coordinator', text: 'The Cedar Creek fire burned a lot of forest.' } }], { dialect: 'adk-js', streaming: true }).slice(0, 2);
    const events = transform(frames);
    expect(states(events)).toEqual(['THINKING', 'ERROR']);
    expect(events[1]).toMatchObject({ error: { code: 'NO_FINAL_ANSWER' } });
    expect(events[1]?.content.detail).toMatch(/coordinator had streamed \d+ characters/);
  });

  it('an error mid-stream after chunks (adk-js 503) is the ERROR', () => {
    const frames = [...renderRun([{ model: { author: 'c', text: 'one two three four five six' } }], { dialect: 'adk-js', streaming: true }).slice(0, 2), ...renderRun([{ modelError: { author: 'c', errorCode: '503', errorMessage: 'overloaded' } }], { dialect: 'adk-js', streaming: true })];
    expect(states(transform(frames))).toEqual(['THINKING', 'ERROR']);
  });

  it('an invalid frame is an ALERT naming it, and the run goes on', () => {
    const frames = renderRun([{ model: { author: 'a', text: 'Answer.' } }], { dialect: 'adk-js', streaming: false });
    const events = transform(['not json', ...frames]);
    expect(events[0]).toMatchObject({ type: 'ALERT', error: { source: 'input', code: 'INVALID_FRAME' }, content: { summary: 'frame 1: unreadable frame' } });
    expect(states(events).at(-1)).toBe('COMPLETE');
  });

  it('[DONE] ends the run; frames after it are ignored', () => {
    const frames = renderRun([{ model: { author: 'a', text: 'Answer.' } }], { dialect: 'adk-python', streaming: false });
    const events = transform([...frames, '[DONE]', '{"error":"late"}'], { sessionId: 's', enhanced: true });
    expect(states(events)).toEqual(['THINKING', 'COMPLETE']);
  });

  it('an enhanced stream that ends without [DONE] gets an ALERT before its terminal event', () => {
    const events = transform(renderRun([{ model: { author: 'a', text: 'Answer.' } }], { dialect: 'adk-python', streaming: false }), { sessionId: 's', enhanced: true });
    expect(states(events)).toEqual(['THINKING', 'ALERT', 'COMPLETE']);
    expect(events[1]).toMatchObject({ error: { code: 'MISSING_DONE' } });
  });

  it('an HTTP error before the stream is one ERROR with the status and a suggestion', () => {
    const events = transform([], { sessionId: 's' }, { reason: 'http-error', status: 404, body: '{"error":"Session not found: s"}' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ state: 'ERROR', error: { source: 'http', code: 'HTTP_404' } });
    expect(events[0]?.content.detail).toMatch(/Create it/);
  });

  it.each(['idle', 'aborted', 'network-error'] as const)('a run that ends by %s without an answer is one ERROR', (reason) => {
    const events = transform(renderRun([{ model: { author: 'a', calls: [{ name: 'burn_analyst', args: { request: 'x' } }] } }], { dialect: 'adk-js', streaming: false }), { sessionId: 's' }, { reason });
    expect(terminal(events)).toEqual([events.at(-1)]);
    expect(events.at(-1)?.error?.code).toBe(reason.toUpperCase().replace('-', '_'));
  });

  it('an empty stream is one ERROR, correlated by a fresh run id when nothing names the run', () => {
    const events = transform([], {});
    expect(events).toHaveLength(1);
    expect(events[0]?.correlation_id).toMatch(/^run-/);
  });

  it('end() is idempotent', () => {
    const t = createTransformer({ sessionId: 's' });
    expect(t.end()).toHaveLength(1);
    expect(t.end()).toHaveLength(1);
  });
});

describe('configuration errors are thrown at once', () => {
  it("correlation 'session' without a session id says what to pass", () => {
    expect(() => createTransformer({ correlation: 'session' })).toThrow(/needs the sessionId option/);
  });

  it('an unknown correlation is refused', () => {
    expect(() => createTransformer({ correlation: 'turn' as never })).toThrow(/must be 'session' or 'invocation'/);
  });

  it('a uuid generator that repeats itself is refused when it does', () => {
    const t = createTransformer({ sessionId: 's', uuid: () => '00000000-0000-4000-8000-000000000000' });
    t.pushData(renderRun([{ model: { author: 'a', text: 'x' } }], { dialect: 'adk-js', streaming: false })[0] as string);
    expect(() => t.end()).toThrow(/returned 00000000-0000-4000-8000-000000000000 twice/);
  });

  it('onEvent sees every event as it is emitted, with the injected clock', () => {
    const seen: string[] = [];
    const t = createTransformer({ sessionId: 's', now: () => 0, onEvent: (e) => seen.push(`${e.state}@${e.timestamp}`) });
    for (const f of renderRun([{ model: { author: 'a', text: 'x' } }], { dialect: 'adk-js', streaming: false })) t.pushData(f);
    t.end();
    expect(seen).toEqual(['THINKING@1970-01-01T00:00:00.000Z', 'COMPLETE@1970-01-01T00:00:00.000Z']);
  });
});

describe('proof layer from audit metadata (seed 000 §9 flow)', () => {
  const trail = [
    { event_type: 'tool_invocation', event_id: 'evt_001', timestamp: '2025-12-27T10:30:00.000Z', correlation_id: 'abc-123', agent: 'trail_assessor', session_id: 's', payload: { tool_name: 'classify_damage' } },
    { event_type: 'tool_response', event_id: 'evt_002', timestamp: '2025-12-27T10:30:05.234Z', correlation_id: 'abc-123', agent: 'trail_assessor', session_id: 's', payload: { tool_name: 'classify_damage', status: 'success', confidence: 0.9, data_sources: ['Cedar Creek field assessment'], reasoning_steps: ['Loaded 5 trails', 'WL-001: TYPE_IV'] } },
  ];
  const steps: Step[] = [
    { model: { author: 'trail_assessor', calls: [{ name: 'classify_damage', args: { fire_id: 'cedar-creek-2022' } }] } },
    { tools: { author: 'trail_assessor', responses: [{ name: 'classify_damage', response: { confidence: 0.9 } }] } },
    { model: { author: 'trail_assessor', text: 'Trail damage: 15 points on 5 trails.\n\n**Confidence:** 80%' } },
  ];

  it.each(renderings)('%o: the answer carries step 6: confidence 0.90, the reasoning steps, the data source, a populated ledger', (options) => {
    const events = transform([...renderRun(steps, { ...options, audit: (i) => (i >= 1 ? trail : trail.slice(0, 1)) }), '[DONE]'], { sessionId: 's', enhanced: true });
    const complete = events.at(-1) as BriefingEvent;
    expect(complete.state).toBe('COMPLETE');
    // The audit trail outranks the text's 80%: "Proof layer confidence scores match tool output".
    expect(complete.proof_layer).toMatchObject({
      confidence: 0.9,
      basis: 'audit',
      reasoning_chain: ['Loaded 5 trails', 'WL-001: TYPE_IV'],
      confidence_ledger: { inputs: [{ source: 'Cedar Creek field assessment', confidence: 0.9, tier: 1 }], analysis_confidence: 0.9, recommendation_confidence: 0.9 },
    });
    expect(complete.proof_layer?.citations.map((c) => c.source)).toEqual(['Cedar Creek field assessment']);
    expect(complete.content.degradation_notice).toBeUndefined();
    expect(validate('agent-briefing-event', complete).valid).toBe(true);
  });

  it('a tool_error in the trail gives the answer confidence 0.0 and a tier 4 notice', () => {
    const failed = [trail[0], { ...trail[1], event_type: 'tool_error', payload: { tool_name: 'classify_damage', error: 'fixture missing' } }];
    const complete = transform(renderRun(steps, { dialect: 'adk-python', streaming: false, audit: () => failed })).at(-1) as BriefingEvent;
    expect(complete.proof_layer?.confidence).toBe(0);
    expect(complete.content.degradation_notice).toMatch(/^Tier 4/);
  });
});
