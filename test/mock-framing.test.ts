/**
 * The framing variants of the corpus (CRLF, CR, BOM, comments, byte-by-byte writes, multi-line
 * data...) change the bytes but not the events: read off the socket with eventsource-parser (via
 * core/sse.ts), each gives the same events as the plain rendering of the same run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../core/sse.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import type { Scenario } from '../schemas/types.ts';
import { faultCatalog, type FaultSpec } from '../mock-adk/core/faults.ts';
import { render } from '../mock-adk/core/render.ts';
import { startMock, type RunningMock } from '../mock-adk/server/start.ts';
import { postJson, scenarioRequest, sessionPath } from './mock-support.ts';

const { scenarios } = loadScenarios();

/** Scenarios whose faults all keep the events (same frames, same JSON, or only timing). */
const variants = scenarios.filter((s) => {
  const faults = (s.faults ?? []) as FaultSpec[];
  return s.upstream.kind === 'run' && faults.length > 0 && faults.every((f) => faultCatalog[f.name]?.effect !== 'breaks');
});

const plainData = (scenario: Scenario) => readSse(Buffer.concat(render(scenario, {
  dialect: scenario.dialect, streaming: scenario.request.streaming ?? false, appName: scenario.id, userId: scenario.session.userId, sessionId: scenario.session.sessionId,
}).chunks.map((c) => c.bytes))).frames.map((f) => f.data);

let mock: RunningMock;
beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, timeScale: 0 }); });
afterAll(async () => { await mock.close(); });

describe('framing variants read through eventsource-parser', () => {
  it('the corpus has framing variants to read', () => {
    expect(variants.length).toBeGreaterThanOrEqual(5);
  });

  it.each(variants.map((s) => [s.id, (s.faults ?? []).map((f) => f.name).join('+'), s] as const))('%s (%s) reads into the same events as the plain rendering', async (_id, _faults, scenario) => {
    await postJson(mock.url, sessionPath(scenario), {});
    // Served in the scenario's own dialect (a variant of adk-python or adk-go too), as `plain` renders it.
    await postJson(mock.url, '/_mock/arm', { sessionId: scenario.session.sessionId, scenario: scenario.id, dialect: scenario.dialect });
    const { path, body } = scenarioRequest(scenario);
    const response = await postJson(mock.url, path, body);
    const read = readSse(response.body);
    const plain = plainData(scenario);
    const sameJson = ((scenario.faults ?? []) as FaultSpec[]).some((f) => faultCatalog[f.name]?.effect === 'same-json');
    // `same-json` variants spread one payload over several data lines: the text differs (LFs
    // between tokens), the JSON value does not.
    const seen = read.frames.map((f) => (sameJson ? JSON.parse(f.data) as unknown : f.data));
    const expected = plain.map((d) => (sameJson ? JSON.parse(d) as unknown : d));
    expect(seen).toEqual(expected);
    expect(read.issues).toEqual([]);
  });
});
