/**
 * Laws: the transformer is deterministic, and completion happens exactly once.
 *
 * - The same frames give the same briefings (ABE-DET-001): with a pinned clock and ids, value for
 *   value; with fresh random ids, the same events up to their ids.
 * - The transformer ends every run with exactly one terminal event, last (docs/briefing-mapping.md
 *   "Exactly one terminal event (COMPLETE or ERROR) ends every run, and nothing follows it"), and
 *   frames or a second `end()` after it change nothing.
 * - The reference client (reference-impl/client.ts) reading the stream yields exactly one `end`
 *   frame, last, for the reason the model's ending implies, after every data frame.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planToStream } from '../../mock-adk/replay.ts';
import { createRunClient } from '../../reference-impl/client.ts';
import { createTransformer } from '../../reference-impl/transformer/index.ts';
import type { ClientFrame } from '../../reference-impl/transformer/frames.ts';
import { comparable } from '../transformer-fixtures.ts';
import { generatedRunArb, type GenScenario } from '../../harness/arbitraries/index.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from './law-runner.ts';
import { isEnhanced, planOf, transformFrames } from './pipeline.ts';

const file = 'test/laws/completion.test.ts';
const params = lawParams(150);
const timeout = lawTimeout(params, 30);
const isTerminal = (e: { state?: string }) => e.state === 'COMPLETE' || e.state === 'ERROR';

async function clientFrames(s: GenScenario): Promise<ClientFrame[]> {
  const plan = planOf(s);
  const fetchPlan: typeof fetch = async () => new Response(planToStream(plan, { timeScale: 0 }), { status: plan.status, headers: plan.headers.filter(([n]) => n.toLowerCase() !== 'date') });
  const client = createRunClient({ baseUrl: 'http://127.0.0.1:9', path: isEnhanced(s) ? '/run_sse_enhanced' : '/run_sse', fetch: fetchPlan });
  const frames: ClientFrame[] = [];
  for await (const frame of client.run({ appName: s.id, userId: s.session.userId, sessionId: s.session.sessionId, newMessage: { role: 'user', parts: [{ text: s.request.message }] }, streaming: s.request.streaming })) frames.push(frame);
  return frames;
}

/** How the client ends a stream the model describes: the enhanced [DONE], an error line, or EOF. */
function expectedEnd(s: GenScenario): string {
  if (isEnhanced(s)) return 'done-sentinel';
  return s.expect.errorFrame ? 'error-frame' : 'eof';
}

describe(`determinism and single completion (${describeParams(params)})`, () => {
  it('the transformer gives the same briefings for the same frames', async () => {
    await checkLaw(file, 'the transformer gives the same briefings for the same frames', fc.property(generatedRunArb(), (s) => {
      const data = planOf(s).frames.map((f) => f.data);
      expect(transformFrames(s, data)).toEqual(transformFrames(s, data));
      const fresh = () => { const t = createTransformer({ sessionId: s.session.sessionId, enhanced: isEnhanced(s) }); for (const d of data) t.pushData(d); return comparable(t.end()).map((e) => ({ ...(e as object), timestamp: undefined })); };
      expect(fresh()).toEqual(fresh());
    }), params);
  }, timeout);

  it('the transformer ends every run with exactly one terminal event, and nothing after it changes the output', async () => {
    await checkLaw(file, 'the transformer ends every run with exactly one terminal event, and nothing after it changes the output', fc.property(generatedRunArb(), fc.array(fc.string(), { maxLength: 3 }), (s, extra) => {
      const data = planOf(s).frames.map((f) => f.data);
      const t = createTransformer({ sessionId: s.session.sessionId, enhanced: isEnhanced(s), now: () => 0 });
      for (const d of data) t.pushData(d);
      const events = [...t.end()];
      expect(events.filter(isTerminal)).toEqual([events.at(-1)]);
      expect(t.done()).toBe(true);
      for (const d of [...data, ...extra]) t.pushData(d);
      t.end({ reason: 'network-error', message: 'a second end' });
      expect(t.events()).toEqual(events);
    }), params);
  }, timeout);

  it('the client yields every frame, then exactly one end, for the reason the run implies', async () => {
    await checkLaw(file, 'the client yields every frame, then exactly one end, for the reason the run implies', fc.asyncProperty(generatedRunArb(), async (s) => {
      const frames = await clientFrames(s);
      const ends = frames.filter((f) => f.kind === 'end');
      expect(ends).toEqual([frames.at(-1)]);
      expect(ends[0]).toMatchObject({ reason: expectedEnd(s) });
      expect(frames.filter((f) => 'data' in f)).toHaveLength(s.expect.frames);
      expect(frames.filter((f) => f.kind === 'issue')).toEqual([]);
    }), params);
  }, timeout);
});
