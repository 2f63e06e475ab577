/**
 * Law: the gateway is the identity on bytes for every generated stream (seed 004 "Zero mutation:
 * Raw ADK events preserve full context"; docs/gateway.md "Passthrough ... byte for byte"). Each
 * case starts the real mock with the generated scenario as its only scenario (the mock cannot take
 * an ad-hoc scenario over HTTP) and the reference gateway in front of it, both on 127.0.0.1, and
 * compares the body the gateway sends with the body the mock sends for the same request and with
 * the bytes of the rendered plan.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startMock } from '../../mock-adk/server/start.ts';
import { startGateway } from '../../reference-impl/gateway/start.ts';
import { createSession, rawRequest, runBody } from '../gateway-fixtures.ts';
import { asScenario, generatedRunArb } from '../../harness/arbitraries/index.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from './law-runner.ts';
import { bodyOf, isEnhanced, planOf } from './pipeline.ts';

const file = 'test/laws/gateway-identity.test.ts';
const params = lawParams(40);
const timeout = lawTimeout(params, 60);

describe(`the gateway passes every generated stream unchanged (${describeParams(params)})`, () => {
  it('the gateway body equals the mock body and the rendered bytes, for every generated run', async () => {
    await checkLaw(file, 'the gateway body equals the mock body and the rendered bytes, for every generated run', fc.asyncProperty(generatedRunArb(), async (s) => {
      // A real server speaks one dialect: the mock speaks the run's own (every run renders in every dialect).
      const mock = await startMock({ scenarios: [asScenario(s)], timeScale: 0, dialect: s.dialect });
      const gateway = await startGateway({ config: { auth: { mode: 'off' }, canonicalStreamEnabled: true, upstreamUrl: mock.url } });
      try {
        await createSession(mock.url, s.id, s.session.userId, s.session.sessionId);
        const path = isEnhanced(s) ? '/run_sse_enhanced' : '/run_sse';
        const body = JSON.stringify(runBody(asScenario(s)));
        const direct = await rawRequest(`${mock.url}${path}`, { body });
        const through = await rawRequest(`${gateway.url}${path}`, { body });
        const expected = bodyOf(planOf(s));
        expect(direct.status).toBe(200);
        expect(through.status).toBe(200);
        expect(through.error).toBeUndefined();
        expect(direct.body.equals(expected)).toBe(true);
        expect(through.body.equals(direct.body)).toBe(true);
      } finally {
        await gateway.close();
        await mock.close();
      }
    }), params);
  }, timeout);
});
