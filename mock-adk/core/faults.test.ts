/**
 * Fault laws. Re-chunking and re-encoding faults keep what a WHATWG reader dispatches; the
 * breaking faults change exactly what they say; and after any fault the plan's `frames` list is
 * what a reader dispatches from its bytes. Generated cases use fast-check with a fixed seed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseReader, type SseIssue } from '../../core/sse.ts';
import { applyFaults, faultCatalog, faultNames } from './faults.ts';
import type { FaultSpec } from './faults.ts';
import { render } from './render.ts';
import { body, ctx, fourAgentTools, oneTool, plainText, runScenario, scenarioWith, transfer } from './test-scenarios.ts';
import type { Dialect, ReplayPlan } from './types.ts';

const SEED = 20260522;
const RUNS = 60;

/** Feed the plan's writes one by one, as a client receives them. */
function receive(plan: ReplayPlan): { data: string[]; issues: SseIssue[]; comments: string[] } {
  const data: string[] = [];
  const issues: SseIssue[] = [];
  const comments: string[] = [];
  const reader = createSseReader({ onFrame: (f) => data.push(f.data), onIssue: (i) => issues.push(i), onComment: (c) => comments.push(c) });
  for (const c of plan.chunks) reader.feed(c.bytes);
  reader.end();
  return { data, issues, comments };
}

const corpus: ReplayPlan[] = [];
for (const dialect of ['adk-js', 'adk-python'] as Dialect[]) {
  for (const streaming of [false, true]) {
    for (const steps of [plainText, oneTool, fourAgentTools, transfer]) corpus.push(render(runScenario(steps), ctx(dialect, streaming)));
  }
  corpus.push(render(runScenario([{ model: { author: 'a', text: 'Partial answer ' } }, { errorFrame: { message: 'boom "x"' } }, { raw: { text: 'data: {}\n\n' } }]), ctx(dialect, false)));
}
corpus.push(render(scenarioWith({ kind: 'bytes', chunks: [{ text: 'data: {"a":1,"b":[1,2]}\r\n\r\n: c\r\ndata: x\rdata: y\r\r' }] }), ctx('adk-js', false)));

const planArb = fc.integer({ min: 0, max: corpus.length - 1 }).map((i) => corpus[i]!);
const styleArb = fc.constantFrom('crlf', 'cr', 'mixed');
const datas = (plan: ReplayPlan): string[] => plan.frames.map((f) => f.data);

describe(`fault laws (fast-check seed ${SEED})`, () => {
  it('reads any byte split of a plan back into the same frames', () => {
    fc.assert(fc.property(planArb, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }), (plan, cuts) => {
      const size = body(plan).length;
      const offsets = [...new Set(cuts.map((c) => 1 + Math.floor(c * (size - 2))))];
      const split = applyFaults(plan, offsets.length > 0 ? [{ name: 'split-at', offsets }] : []);
      expect(receive(split).data).toEqual(datas(plan));
      expect(body(split)).toEqual(body(plan));
    }), { seed: SEED, numRuns: RUNS });
  });

  it('reads every line-ending style, at any chunk size, into the same frames', () => {
    fc.assert(fc.property(planArb, styleArb, fc.integer({ min: 1, max: 64 }), (plan, style, bytes) => {
      const out = applyFaults(plan, [{ name: 'line-endings', style }, { name: 'chunk-size', bytes }]);
      expect(receive(out).data).toEqual(datas(plan));
      expect(out.frames).toEqual(plan.frames);
    }), { seed: SEED, numRuns: RUNS });
  });

  it('keeps the frames under any mix of the meaning-keeping faults', () => {
    const keeping = fc.constantFrom<FaultSpec>(
      { name: 'bom' }, { name: 'comments', text: 'ping', every: 2 }, { name: 'comments', text: 'mid', place: 'inside' }, { name: 'chunk-size', bytes: 5 }, { name: 'dribble', bytesPerChunk: 9, intervalMs: 1 },
      { name: 'line-endings', style: 'mixed' }, { name: 'silence', afterFrame: 0, ms: 10 }, { name: 'delay-headers', ms: 3 }, { name: 'split-every-byte' }, { name: 'multiline-data' },
    );
    fc.assert(fc.property(planArb, fc.uniqueArray(keeping, { maxLength: 5, selector: (f) => f.name }), (plan, faults) => {
      const out = applyFaults(plan, faults);
      const got = receive(out);
      expect(got.issues).toEqual([]);
      if (faults.some((f) => f.name === 'multiline-data')) {
        // same-json: other data text, the same JSON values.
        expect(got.data.map((d, i) => (plan.frames[i]!.json === undefined ? d : JSON.parse(d)))).toEqual(plan.frames.map((f) => f.json ?? f.data));
      } else {
        expect(got.data).toEqual(datas(plan));
      }
      expect(got.data).toEqual(datas(out));
    }), { seed: SEED, numRuns: RUNS });
  });

  it('lists in plan.frames exactly what a reader dispatches, whatever the faults', () => {
    fc.assert(fc.property(planArb, fc.nat(), fc.nat(), (plan, a, b) => {
      const n = plan.frames.length;
      const frame = a % n;
      const all: FaultSpec[] = [
        { name: 'duplicate-frame', frame }, { name: 'invalid-utf8', frame }, { name: 'done-sentinel' }, { name: 'comments', text: 'hb', every: 1 },
        { name: 'cut-after-frame', frame }, { name: 'close-after-frame', frame }, { name: 'multiline-data' }, { name: 'bom' },
      ];
      const chosen = all.filter((_, i) => (b >> i) & 1);
      const out = applyFaults(plan, chosen);
      expect(receive(out).data).toEqual(datas(out));
    }), { seed: SEED, numRuns: RUNS });
  });

  it('never changes the plan it is given and renders the same output twice', () => {
    fc.assert(fc.property(planArb, styleArb, (plan, style) => {
      const before = body(plan);
      const faults: FaultSpec[] = [{ name: 'line-endings', style }, { name: 'split-every-byte' }, { name: 'status', code: 500 }];
      const a = applyFaults(plan, faults);
      const b = applyFaults(plan, faults);
      expect(body(plan)).toEqual(before);
      expect(a).toEqual(b);
    }), { seed: SEED, numRuns: 20 });
  });
});

describe('breaking faults do what they say', () => {
  const plan = corpus[1]!; // adk-js, non-streaming, one tool: 3 frames
  const frameBytes = (p: ReplayPlan, k: number): number => {
    const ends: number[] = [];
    let at = 0;
    for (const c of p.chunks) { at += c.bytes.length; if (c.frame === k) ends.push(at); }
    return ends.at(-1)!;
  };

  it('cuts after a frame with a reset, or closes cleanly', () => {
    const cut = applyFaults(plan, [{ name: 'cut-after-frame', frame: 1 }]);
    expect(cut.end).toBe('reset');
    expect(receive(cut).data).toEqual(datas(plan).slice(0, 2));
    expect(body(cut).length).toBe(frameBytes(plan, 1));
    const closed = applyFaults(plan, [{ name: 'close-after-frame', frame: 0 }]);
    expect([closed.end, closed.frames.length]).toEqual(['eof', 1]);
  });

  it('cuts inside a frame and leaves it unterminated', () => {
    const out = applyFaults(plan, [{ name: 'cut-mid-frame', frame: 1, bytes: 40 }]);
    const got = receive(out);
    expect(got.data).toEqual(datas(plan).slice(0, 1));
    expect(got.issues.map((i) => i.kind)).toEqual(['unterminated-event']);
    expect(out.end).toBe('reset');
  });

  it('duplicates a frame, corrupts one with 0xFF, appends [DONE]', () => {
    expect(receive(applyFaults(plan, [{ name: 'duplicate-frame', frame: 0 }])).data).toEqual([datas(plan)[0], ...datas(plan)]);
    const bad = applyFaults(plan, [{ name: 'invalid-utf8', frame: 2 }]);
    const got = receive(bad);
    expect(got.issues.map((i) => i.kind)).toEqual(['invalid-utf8']);
    expect(got.data[2]).toContain('\ufffd');
    expect(bad.frames[2]!.json).toBeDefined();
    expect(receive(applyFaults(plan, [{ name: 'done-sentinel' }])).data.at(-1)).toBe('[DONE]');
  });

  it('changes the status, the ending and the waits without touching the bytes', () => {
    const out = applyFaults(plan, [{ name: 'hold-open' }, { name: 'status', code: 503 }, { name: 'delay-headers', ms: 250 }, { name: 'silence', afterFrame: 0, ms: 90_000 }]);
    expect([out.status, out.end, out.headersDelayMs]).toEqual([503, 'hold-open', 250]);
    expect(out.chunks.map((c) => c.delayMs)).toEqual([0, 90_000, 0]);
    expect(body(out)).toEqual(body(plan));
  });

  it('dribbles writes of the given size, each after the interval', () => {
    const out = applyFaults(plan, [{ name: 'dribble', bytesPerChunk: 10, intervalMs: 7 }]);
    expect(out.chunks.every((c) => c.bytes.length <= 10 && c.delayMs === 7)).toBe(true);
  });

  it('writes heartbeat comments a reader reports and ignores', () => {
    const out = applyFaults(plan, [{ name: 'comments', text: 'keep-alive', every: 2 }]);
    expect(receive(out).comments).toEqual(['keep-alive', 'keep-alive']);
  });

  it('writes a comment inside each event, after its first line and before its blank line, in that line end\'s style', () => {
    const inside = applyFaults(plan, [{ name: 'comments', text: 'mid', place: 'inside' }]);
    const text = new TextDecoder().decode(body(inside));
    expect(text.split('\n\n').filter((b) => b !== '').every((block) => /^data: [^\n]*\n: mid$/.test(block))).toBe(true);
    expect(receive(inside).data).toEqual(datas(plan));
    const crlf = new TextDecoder().decode(body(applyFaults(plan, [{ name: 'line-endings', style: 'crlf' }, { name: 'comments', text: 'mid', place: 'inside' }])));
    expect(crlf.startsWith(`${crlf.slice(0, crlf.indexOf('\r\n'))}\r\n: mid\r\n\r\n`)).toBe(true);
  });

  it('writes two BOMs: a reader strips one, and the first frame is lost to the field name the second starts', () => {
    const out = applyFaults(plan, [{ name: 'double-bom' }]);
    expect([...body(out).subarray(0, 7)]).toEqual([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x64]);
    expect(receive(out).data).toEqual(datas(plan).slice(1));
    expect(datas(out)).toEqual(datas(plan).slice(1));
  });
});

describe('fault catalog', () => {
  const sample = corpus[5]!; // adk-js streaming, one tool: 7 frames

  it('describes every fault with its parameters and an example that applies', () => {
    expect(faultNames).toEqual([...faultNames].sort());
    for (const required of ['split-every-byte', 'chunk-size', 'split-at', 'dribble', 'line-endings', 'bom', 'comments', 'multiline-data', 'silence', 'cut-after-frame', 'cut-mid-frame', 'close-after-frame', 'hold-open', 'duplicate-frame', 'invalid-utf8', 'status', 'delay-headers', 'done-sentinel']) {
      expect(faultNames).toContain(required);
    }
    for (const name of faultNames) {
      const entry = faultCatalog[name]!;
      expect(entry.description.length).toBeGreaterThan(20);
      expect(entry.example.name).toBe(name);
      expect(() => applyFaults(sample, [entry.example])).not.toThrow();
    }
  });

  it('keeps the frames under every catalog example that does not claim to break them', () => {
    for (const name of faultNames) {
      const entry = faultCatalog[name]!;
      if (entry.effect === 'breaks') continue;
      for (const plan of corpus.filter((p) => body(p).length > 200)) {
        const got = receive(applyFaults(plan, [entry.example])).data;
        if (entry.effect === 'same-json') expect(got.map((d) => JSON.parse(d))).toEqual(plan.frames.map((f) => f.json));
        else expect(got).toEqual(datas(plan));
      }
    }
  });

  it('refuses unknown faults, listing the known ones', () => {
    expect(() => applyFaults(sample, [{ name: 'split-evry-byte' }])).toThrow(TypeError);
    expect(() => applyFaults(sample, [{ name: 'split-evry-byte' }])).toThrow(/faults\[0\]: unknown fault "split-evry-byte"; known faults: bom, chunk-size/);
  });

  it('refuses bad, missing and unknown parameters, naming them', () => {
    const cases: Array<[FaultSpec, RegExp]> = [
      [{ name: 'chunk-size', bytes: 0 }, /parameter bytes must be an integer >= 1, got 0/],
      [{ name: 'chunk-size' }, /parameter bytes is required/],
      [{ name: 'line-endings', style: 'lf' }, /must be one of crlf, cr, mixed/],
      [{ name: 'bom', at: 3 }, /unknown parameter at; it takes no parameters/],
      [{ name: 'split-at', offsets: [] }, /non-empty array of integers/],
      [{ name: 'split-at', offsets: [1e9] }, /offset 1000000000 is not inside the body/],
      [{ name: 'cut-after-frame', frame: 99 }, /frame 99 does not exist; the stream has 7 frames/],
      [{ name: 'cut-mid-frame', frame: 0, bytes: 1e6 }, /bytes must be less than frame 0's length/],
      [{ name: 'status', code: 99 }, />= 100 <= 599/],
      [{ name: 'comments', text: 'a\nb' }, /single line/],
    ];
    for (const [fault, message] of cases) expect(() => applyFaults(sample, [fault])).toThrow(message);
    expect(() => applyFaults(sample, 'bom' as never)).toThrow(/faults must be an array/);
    expect(() => applyFaults(sample, [null])).toThrow(/a fault must be an object/);
  });
});

describe('fault combinations', () => {
  it('a BOM stays the first byte whatever order it is listed in with comments', () => {
    const plan = corpus[0]!;
    for (const faults of [[{ name: 'comments' }, { name: 'bom' }], [{ name: 'bom' }, { name: 'comments' }]]) {
      const out = applyFaults(plan, faults);
      expect([...out.chunks[0]!.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const got = receive(out);
      expect(got.data).toEqual(datas(plan));
      expect(got.issues).toEqual([]);
    }
  });
});
