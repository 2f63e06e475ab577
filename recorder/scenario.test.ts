import { describe, expect, it } from 'vitest';
import { applyFaults } from '../mock-adk/core/faults.ts';
import { render } from '../mock-adk/core/render.ts';
import type { ReplayPlan } from '../mock-adk/core/types.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Scenario } from '../schemas/types.ts';
import { lintRecording } from './lint.ts';
import { userRedactions } from './redact.ts';
import { buildScenario } from './scenario.ts';
import { exchangeFor, planAsCapture } from './test-support.ts';
import { concatBytes } from './body.ts';

// The recorder records ADK runs; the Anthropic Messages streams of seed 003 are not ADK runs.
const corpus = loadScenarios().scenarios.filter((s) => s.upstream.kind !== 'anthropic-turn' && s.request.endpoint !== '/v1/messages');

function planOf(scenario: Scenario, sessionId = scenario.session.sessionId): ReplayPlan {
  const plan = render(scenario, {
    dialect: scenario.dialect, streaming: scenario.request.streaming === true, appName: scenario.id,
    userId: scenario.session.userId, sessionId, ...(scenario.request.endpoint === '/run_sse_enhanced' ? { enhanced: true } : {}),
  });
  return scenario.faults?.length ? applyFaults(plan, scenario.faults as Parameters<typeof applyFaults>[1]) : plan;
}

const bodyOf = (plan: ReplayPlan) => Buffer.from(concatBytes(plan.chunks.map((c) => c.bytes)));

describe.each(corpus.map((s) => [s.id, s] as const))('recording %s', (_id, original) => {
  const plan = planOf(original);
  const { scenario } = buildScenario(exchangeFor(original, planAsCapture(plan)), { id: `rec_${original.id}`.slice(0, 64) });

  it('replays the recorded status, headers and body byte for byte', () => {
    const replayed = planOf(scenario);
    expect(replayed.status).toBe(plan.status);
    expect(replayed.headers).toEqual(plan.headers);
    expect(bodyOf(replayed).equals(bodyOf(plan))).toBe(true);
    expect(replayed.end).toBe(plan.end);
  });

  it('passes the scenario linter', () => {
    expect(lintRecording(scenario, `/tmp/${scenario.id}.json`)).toEqual([]);
  });

  it('agrees with the original on status, outcome and frame count', () => {
    expect(scenario.expect.status).toBe(original.expect.status);
    expect(scenario.expect.frames ?? 0).toBe(plan.frames.length);
    expect(scenario.expect.outcome).toBe(original.expect.outcome);
  });
});

describe('buildScenario', () => {
  const base = corpus.find((s) => s.id === 'plain_text_streaming')!;

  it('keeps the inter-frame timing as chunk delays', () => {
    const capture = planAsCapture(planOf(base));
    capture.chunks = capture.chunks.map((c, i) => ({ ...c, atMs: c.atMs + 40 * (i + 1) }));
    const { scenario } = buildScenario(exchangeFor(base, capture), { id: 'timed' });
    const chunks = (scenario.upstream as { chunks: Array<{ delayMs?: number }> }).chunks;
    expect(chunks.slice(1).every((c) => (c.delayMs ?? 0) >= 40)).toBe(true);
  });

  it('records the same run from two sessions as the same bytes once ids are normalised', () => {
    const a = buildScenario(exchangeFor(base, planAsCapture(planOf(base, 's-one'))), { id: 'norm', normalizeIds: true }).scenario;
    const b = buildScenario(exchangeFor(base, planAsCapture(planOf(base, 's-two'))), { id: 'norm', normalizeIds: true }).scenario;
    const raw = buildScenario(exchangeFor(base, planAsCapture(planOf(base, 's-one'))), { id: 'norm' }).scenario;
    const raw2 = buildScenario(exchangeFor(base, planAsCapture(planOf(base, 's-two'))), { id: 'norm' }).scenario;
    expect(JSON.stringify(raw.upstream)).not.toBe(JSON.stringify(raw2.upstream));
    expect(JSON.stringify(a.upstream).replace(/"timestamp\\":\d+/g, '')).toBe(JSON.stringify(b.upstream).replace(/"timestamp\\":\d+/g, ''));
    expect(JSON.stringify(a.upstream)).toContain('"timestamp\\":1795318500000');
  });

  it('keeps secrets out: cookies and credentials dropped, body and message redacted', () => {
    const capture = planAsCapture(planOf(base));
    capture.headers.push(['Set-Cookie', 'session=abc123secret'], ['WWW-Authenticate', 'Bearer realm="x" token=sk-abcdefghijklmnopqrstuvwx']);
    const secret = 'sk-ant-api03-LEAKLEAKLEAKLEAKLEAK';
    capture.chunks[0] = { ...capture.chunks[0]!, bytes: new TextEncoder().encode(new TextDecoder().decode(capture.chunks[0]!.bytes).replace('"text":"', `"text":"key ${secret} ACME-778899 `)) };
    const exchange = exchangeFor(base, capture);
    exchange.request.message = `my password: hunter22 and ${secret}`;
    exchange.request.sessionState = { apiKey: 'AIzaSyA1234567890abcdefghijklmnopqrstuv' };
    const result = buildScenario(exchange, { id: 'secrets', redactions: userRedactions(['ACME-[0-9]{6}']) });
    const text = JSON.stringify(result.scenario);
    for (const leaked of [secret, 'hunter22', 'abc123secret', 'ACME-778899', 'AIzaSyA1234567890', 'sk-abcdefghijklmnop']) expect(text).not.toContain(leaked);
    expect(result.droppedHeaders).toEqual(['Set-Cookie']);
    expect(lintRecording(result.scenario, '/tmp/secrets.json')).toEqual([]);
  });

  it('refuses a user pattern that breaks a frame\'s JSON, naming the pattern', () => {
    expect(() => buildScenario(exchangeFor(base, planAsCapture(planOf(base))), { id: 'broken', redactions: userRedactions(['"author"']) })).toThrow(/broke the JSON of frame 0 \(user patterns: "author"\)/);
  });

  it('refuses an id that cannot be a file name and an app name', () => {
    expect(() => buildScenario(exchangeFor(base, planAsCapture(planOf(base))), { id: 'Bad-Id' })).toThrow(/must match \[a-z0-9_\]\+/);
  });
});
