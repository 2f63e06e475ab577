/**
 * Generated runs are scenarios like the scripted ones: each is valid against
 * schemas/scenario.schema.json, passes the corpus linter (which renders it and compares its
 * `expect` with the rendering), and the reference pipeline agrees with the model's `expect`: the
 * rendered frame count, the client's completion, the transformer's briefings outline, terminal
 * state and final text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyFaults } from '../../mock-adk/core/faults.ts';
import { faultNames } from '../../mock-adk/core/faults.ts';
import { render } from '../../mock-adk/core/render.ts';
import { lintScenarios } from '../../scenarios/lint.ts';
import { validate } from '../../schemas/registry.ts';
import { outlineMismatch } from '../transformer-briefing-match.ts';
import { asScenario, framingFaultNames, framingFaultsWithoutGenerator, generatedRunArb, sampleRuns } from '../../harness/arbitraries/index.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from './law-runner.ts';
import { planOf, transformFrames } from './pipeline.ts';

const file = 'test/laws/generated-scenarios.test.ts';
const params = lawParams(200);
const timeout = lawTimeout(params, 5);

describe(`generated runs are checked like scripted scenarios (${describeParams(params)})`, () => {
  it('every meaning-preserving fault of the mock catalog has a framing generator', () => {
    expect(framingFaultNames.length).toBeGreaterThan(3);
    expect(framingFaultsWithoutGenerator()).toEqual([]);
  });

  it('every generated scenario is valid against the scenario schema', async () => {
    await checkLaw(file, 'every generated scenario is valid against the scenario schema', fc.property(generatedRunArb(), (s) => {
      expect(validate('scenario', s).errors).toEqual([]);
    }), params);
  }, timeout);

  it('a model error is the last event of its run, except where adk-js goes on: an unknown tool answered with UNKNOWN_ERROR without streaming, or a transfer streamed', async () => {
    await checkLaw(file, 'a model error is the last event of its run, except where adk-js goes on', fc.property(generatedRunArb(), (s) => {
      s.upstream.steps.forEach((step, i) => {
        if (!('modelError' in step) || i === s.upstream.steps.length - 1) return;
        expect(s.dialect).toBe('adk-js');
        // Streamed, the sub-agent's error ends its run and adk-js runs the transferring coordinator
        // again (agents/llm_agent.js runAsyncImpl), whose answer is the run's last step.
        const transferred = s.upstream.steps.slice(0, i).some((x) => 'tools' in x && x.tools.transferToAgent !== undefined);
        if (s.request.streaming && transferred && i === s.upstream.steps.length - 2) {
          const next = s.upstream.steps[i + 1];
          expect(next && 'model' in next && next.model.author !== step.modelError.author).toBe(true);
          return;
        }
        // adk-wire-format §6: otherwise only the unknown-tool error keeps a real server's run going.
        expect(s.request.streaming).toBe(false);
        const before = s.upstream.steps[i - 1];
        expect(before && 'model' in before && (before.model.calls?.length ?? 0) > 0).toBe(true);
        expect(step.modelError.errorMessage).toMatch(/^Function \S+ is not found in the toolsDict\.$/);
      });
    }), params);
  }, timeout);

  it('the corpus linter finds no issue in a batch of generated scenarios', () => {
    const batch = sampleRuns(Math.min(params.numRuns, 300), params.seed);
    const issues = lintScenarios(batch.map(asScenario), batch.map((s) => `${s.id}.json`), {
      render: (s, ctx) => render(s, ctx),
      applyFaults: (plan, faults) => applyFaults(plan, faults as Array<{ name: string }>),
      faultNames,
    });
    expect(issues).toEqual([]);
  });

  it('the rendering has the frames the model counts, ending where the model says', async () => {
    await checkLaw(file, 'the rendering has the frames the model counts, ending where the model says', fc.property(generatedRunArb(), (s) => {
      const plan = planOf(s);
      expect(plan.frames.length).toBe(s.expect.frames);
      const last = plan.frames.at(-1);
      if (s.expect.errorFrame && 'raw' in s.expect.errorFrame) expect(last?.data).toBe(s.expect.errorFrame.raw);
      else if (s.expect.errorFrame) expect(last?.json).toMatchObject(s.expect.errorFrame);
    }), params);
  }, timeout);

  it('the reference transformer gives the briefings, terminal state and final text the model expects', async () => {
    await checkLaw(file, 'the reference transformer gives the briefings, terminal state and final text the model expects', fc.property(generatedRunArb(), (s) => {
      const events = transformFrames(s, planOf(s).frames.map((f) => f.data));
      for (const e of events) expect(validate('agent-briefing-event', e).errors).toEqual([]);
      expect(outlineMismatch(s.expect.briefings, events)).toBeUndefined();
      const terminal = events.at(-1);
      expect(terminal?.state).toBe(s.expect.outcome === 'complete' ? 'COMPLETE' : 'ERROR');
      if (s.expect.finalText !== undefined) expect(terminal?.content.detail).toBe(s.expect.finalText);
    }), params);
  }, timeout);
});
