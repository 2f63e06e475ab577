import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../../scenarios/loader.ts';
import { startMock, type RunningMock } from '../../../mock-adk/server/start.ts';
import { asWritten, captureBytes, plannedBytes } from './capture.ts';

const { scenarios } = loadScenarios();
const scenario = (id: string) => scenarios.find((s) => s.id === id)!;
let mock: RunningMock;

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0, scenarios, logger: false }); });
afterAll(async () => { await mock.close(); });

describe('a command client is given the body in the writes the mock made', () => {
  it.each(['framing_huge_event', 'framing_split_every_byte'])('%s: every scripted write is its own chunk, whatever the socket reads coalesced', async (id) => {
    const s = scenario(id);
    const c = await captureBytes(mock.url, s, new AbortController().signal);
    const planned = plannedBytes(s, s.session.userId, c.sessionId).chunks.filter((b) => b.byteLength > 0);
    expect(c.chunks.map((x) => x.bytes.byteLength)).toEqual(planned.map((b) => b.byteLength));
    expect(Buffer.concat(c.chunks.map((x) => x.bytes)).equals(Buffer.concat(planned))).toBe(true);
  });

  it('keeps a scripted pause (at most the cap) and drops scheduling noise; a pure wait delays the next write', () => {
    const b = (s: string) => new TextEncoder().encode(s);
    const arrived = [{ bytes: b('abcdef'), delayMs: 0 }];
    expect(asWritten(arrived, [{ bytes: b('ab'), delayMs: 0 }, { bytes: b('cd'), delayMs: 5 }, { bytes: new Uint8Array(0), delayMs: 300 }, { bytes: b('ef'), delayMs: 20 }], 100))
      .toEqual([{ bytes: b('ab'), delayMs: 0 }, { bytes: b('cd'), delayMs: 0 }, { bytes: b('ef'), delayMs: 100 }]);
  });

  it('gives bytes other than the plan (another server on the mock URL) as they came', () => {
    const b = (s: string) => new TextEncoder().encode(s);
    expect(asWritten([{ bytes: b('abc'), delayMs: 0 }], [{ bytes: b('ab'), delayMs: 0 }, { bytes: b('d'), delayMs: 0 }], 100)).toBeUndefined();
  });
});
