/**
 * adk-js 1.4 to 1.6 (docs/mock.md, "adk-js before 2.0.0"): the bytes of adk-js 2.0 except a
 * streamed turn that ends in calls (no content-less usage report after the tool round, so no
 * coordinator turn after a transfer), `GET /version` (Express's 404 page) and `POST /run`'s 500
 * body (no `events` key).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { buildMockApp } from '../../server/app.ts';
import { distinctRenderings } from '../distinct-renderings.ts';
import { render } from '../render.ts';
import { bodyText, ctx, events, oneTool, plainText, runScenario, transfer } from '../test-scenarios.ts';

const js1 = 'adk-js@1.4-1.6' as const;

describe('adk-js@1.4-1.6 renders', () => {
  it.each([false, true])('a run without tool calls byte for byte as adk-js 2.0 (streaming: %s)', (streaming) => {
    const scenario = runScenario(plainText);
    expect(bodyText(render(scenario, ctx(js1, streaming)))).toBe(bodyText(render(scenario, ctx('adk-js', streaming))));
  });

  it('a run with tool calls, without streaming, byte for byte as adk-js 2.0', () => {
    const scenario = runScenario(oneTool);
    expect(bodyText(render(scenario, ctx(js1, false)))).toBe(bodyText(render(scenario, ctx('adk-js', false))));
  });

  it('a streamed turn that ends in calls without the content-less usage report 2.0 writes after the tool round', () => {
    const scenario = runScenario(oneTool);
    const v2 = events(render(scenario, ctx('adk-js', true)));
    const v1 = events(render(scenario, ctx(js1, true)));
    const reports = (list: Array<Record<string, unknown>>) => list.filter((e) => e['content'] === undefined && e['usageMetadata'] !== undefined);
    expect(reports(v2)).toHaveLength(1);
    expect(reports(v1)).toEqual([]);
    expect(v1).toHaveLength(v2.length - 1);
  });

  it('no coordinator turn after a streamed transfer: the run ends on the sub-agent', () => {
    const scenario = runScenario(transfer);
    const authors = (list: Array<Record<string, unknown>>) => list.map((e) => e['author']);
    const v2 = authors(events(render(scenario, ctx('adk-js', true))));
    const v1 = authors(events(render(scenario, ctx(js1, true))));
    expect(v2.at(-1)).toBe(v2[0]);
    expect(v1.at(-1)).not.toBe(v1[0]);
  });

  it('is left out of a certification where it writes the same bytes as another rendering, and kept where it does not', () => {
    expect(distinctRenderings(runScenario(plainText))).not.toContain(js1);
    expect(distinctRenderings(runScenario(oneTool, { id: 'streamed' }))).not.toContain(js1);
    const streamed = { ...runScenario(oneTool), request: { ...runScenario(oneTool).request, streaming: true } };
    expect(distinctRenderings(streamed)).toContain(js1);
  });
});

describe('adk-js@1.4-1.6 answers', () => {
  const { scenarios } = loadScenarios();
  const apps: FastifyInstance[] = [];
  afterAll(async () => { await Promise.all(apps.map((a) => a.close())); });
  const app = (): FastifyInstance => { const a = buildMockApp({ dialect: js1, scenarios, timeScale: 0 }); apps.push(a); return a; };
  const json = { 'content-type': 'application/json' };

  it('GET /version with Express\'s 404 page: 1.x has no such route', async () => {
    const response = await app().inject({ method: 'GET', url: '/version' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<pre>Cannot GET /version</pre>');
  });

  it('a failed POST /run with 500 {"error": …} and no events key', async () => {
    const a = app();
    await a.inject({ method: 'POST', url: '/apps/no_such_app/users/u1/sessions/s1', headers: json, payload: '{}' });
    const response = await a.inject({ method: 'POST', url: '/run', headers: json, payload: JSON.stringify({ appName: 'no_such_app', userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }) });
    expect(response.statusCode).toBe(500);
    expect(Object.keys(response.json() as object)).toEqual(['error']);
    expect((response.json() as { error: string }).error).toMatch(/^Failed to run agent: Agent 'no_such_app' not found/);
  });
});
