/**
 * Fuzzing the reference transformer (`createTransformer`) and its stdio filter (`adk-conformance
 * transform`, docs/transform-contract.md): arbitrary data texts, ADK-shaped values with wrong
 * types everywhere, and real generated frames cut short or corrupted. Nothing throws out; every
 * output is a valid AgentBriefingEvent; each run ends with exactly one terminal event; every
 * unreadable frame becomes an ALERT naming the frame (or the line) and its reason.
 */
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run as transformCli } from '../../cli/commands/transform.ts';
import { classifyData } from '../../reference-impl/transformer/frames.ts';
import { createTransformer } from '../../reference-impl/transformer/index.ts';
import type { BriefingEvent } from '../../reference-impl/transformer/types.ts';
import { validate } from '../../schemas/registry.ts';
import { generatedRunArb } from '../../harness/arbitraries/index.ts';
import { checkLaw, describeParams, lawParams, lawTimeout } from '../laws/law-runner.ts';
import { planOf } from '../laws/pipeline.ts';
import { adkishArb, corrupt, corruptArb } from './bytes.ts';

const file = 'test/fuzz/transformer.test.ts';
const params = lawParams(200);
const timeout = lawTimeout(params, 20);
const isTerminal = (e: { state?: string }) => e.state === 'COMPLETE' || e.state === 'ERROR';

/** A data text: anything, JSON of an ADK-shaped value, or a real frame corrupted. */
const dataArb = (frames: fc.Arbitrary<string[]>): fc.Arbitrary<string[]> => fc.oneof(
  fc.array(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), adkishArb.map((v) => JSON.stringify(v)), fc.jsonValue().map((v) => JSON.stringify(v))), { maxLength: 12 }),
  fc.tuple(frames, fc.array(corruptArb, { maxLength: 6 })).map(([data, cuts]) => data.map((d, i) => corrupt(d, cuts[i % Math.max(1, cuts.length)] ?? { kind: 'keep', at: 0, with: '' }))),
);
const realFrames = generatedRunArb({ maxFraming: 0 }).map((s) => planOf(s).frames.map((f) => f.data));

/** The output law: valid events, one terminal event, last; unreadable frames before it named as ALERTs. */
function checkOutput(events: readonly BriefingEvent[], data: readonly string[], where: (n: number) => string): void {
  for (const e of events) expect(validate('agent-briefing-event', e).errors).toEqual([]);
  expect(events.filter(isTerminal)).toEqual([events.at(-1)]);
  // The frames read before the run ended: up to the first error frame or [DONE].
  const stop = data.findIndex((d) => ['error', 'done'].includes(classifyData(d).kind));
  const read = stop < 0 ? data : data.slice(0, stop + 1);
  const unreadable = read.map((d, i) => [d, i] as const).filter(([d]) => classifyData(d).kind === 'invalid').map(([, i]) => where(i));
  const alerts = events.filter((e) => e.error?.code === 'INVALID_FRAME');
  expect(alerts.map((e) => e.error?.message.split(':')[0])).toEqual(unreadable);
  for (const a of alerts) expect(a.error?.message.length).toBeGreaterThan(where(0).length + 2);
}

async function runCli(input: string | Buffer): Promise<{ code: number; lines: string[] }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.resume();
  const done = transformCli(['--session-id', 's-fuzz'], { stdin, stdout, stderr, env: {} });
  stdin.end(input);
  const code = await done;
  return { code, lines: Buffer.concat(out).toString('utf8').split('\n') };
}

describe(`fuzzing the transformer (${describeParams(params)})`, () => {
  it('pushData takes any texts without throwing and ends with exactly one terminal event, naming every unreadable frame', async () => {
    await checkLaw(file, 'pushData takes any texts without throwing and ends with exactly one terminal event, naming every unreadable frame', fc.property(dataArb(realFrames), (data) => {
      const t = createTransformer({ sessionId: 's-fuzz' });
      for (const d of data) t.pushData(d);
      checkOutput(t.end(), data, (i) => `frame ${i + 1}`);
    }), params);
  }, timeout);

  it('push takes any ADK-shaped value without throwing and ends with exactly one terminal event', async () => {
    await checkLaw(file, 'push takes any ADK-shaped value without throwing and ends with exactly one terminal event', fc.property(fc.array(fc.oneof(adkishArb, fc.jsonValue()), { maxLength: 12 }), fc.boolean(), (values, enhanced) => {
      const t = createTransformer({ enhanced });
      // What a wire payload can be: JSON.parse output (plain objects, no undefined, no null prototypes).
      for (const v of values) t.push(JSON.parse(JSON.stringify(v) ?? 'null'));
      const events = t.end();
      for (const e of events) expect(validate('agent-briefing-event', e).errors).toEqual([]);
      expect(events.filter(isTerminal)).toEqual([events.at(-1)]);
    }), params);
  }, timeout);

  it('the transform filter reads any lines, exits 0, and writes valid briefings ending in one terminal event', async () => {
    const lineArb = fc.string().map((t) => t.replace(/[\r\n]/g, ' '));
    await checkLaw(file, 'the transform filter reads any lines, exits 0, and writes valid briefings ending in one terminal event', fc.asyncProperty(dataArb(realFrames), fc.array(lineArb, { maxLength: 3 }), fc.constantFrom('\n', '\r\n', '\r'), async (frames, garbage, eol) => {
      // One data field per line: line feeds inside a field become spaces (docs/transform-contract.md "Input").
      const lines = [...frames.map((d) => d.replace(/\r\n|\r|\n/g, ' ')), ...garbage];
      const { code, lines: out } = await runCli(lines.join(eol) + eol);
      expect(code).toBe(0);
      expect(out.at(-1)).toBe('');
      const events = out.slice(0, -1).map((l) => JSON.parse(l) as BriefingEvent);
      const numbered = lines.map((l, i) => [l, i] as const).filter(([l]) => l !== '');
      checkOutput(events, numbered.map(([l]) => l), (k) => `line ${(numbered[k]?.[1] ?? 0) + 1}`);
    }), { ...params, numRuns: Math.max(1, Math.ceil(params.numRuns / 2)) });
  }, timeout);

  it('the transform filter reads arbitrary bytes, exits 0, and ends with exactly one terminal event', async () => {
    await checkLaw(file, 'the transform filter reads arbitrary bytes, exits 0, and ends with exactly one terminal event', fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
      const { code, lines } = await runCli(Buffer.from(bytes));
      expect(code).toBe(0);
      const events = lines.slice(0, -1).map((l) => JSON.parse(l) as BriefingEvent);
      for (const e of events) expect(validate('agent-briefing-event', e).errors).toEqual([]);
      expect(events.filter(isTerminal)).toEqual([events.at(-1)]);
    }), { ...params, numRuns: Math.max(1, Math.ceil(params.numRuns / 2)) });
  }, timeout);
});
