import { describe, expect, it } from 'vitest';
import { createNormalizer, normalizedStartMs } from './normalize.ts';

const js = [
  '{"invocationId":"e-7b3d9f21-4c6a-4e85-b0d2-1f8e6a9c3b57","author":"c","id":"Hg7Kp2Qx","timestamp":1700000000100,"content":{"parts":[{"functionCall":{"name":"t","args":{},"id":"adk-0c4e8a2f-6b1d-4f93-a7e5-2d9b8c1f6e04"}}]}}',
  '{"invocationId":"e-7b3d9f21-4c6a-4e85-b0d2-1f8e6a9c3b57","author":"c","id":"Zz9Kp2Qa","timestamp":1700000000350,"content":{"parts":[{"functionResponse":{"name":"t","response":{},"id":"adk-0c4e8a2f-6b1d-4f93-a7e5-2d9b8c1f6e04"}}]}}',
];

describe('createNormalizer', () => {
  it('maps each id to a value of the same shape, the same value every time it recurs', () => {
    const n = createNormalizer('rec', 'adk-js', js);
    const [a, b] = js.map((f) => JSON.parse(n.frame(f)) as { invocationId: string; id: string; content: { parts: Array<Record<string, { id: string }>> } });
    expect(a!.invocationId).toMatch(/^e-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a!.invocationId).toBe(b!.invocationId);
    expect(a!.invocationId).not.toBe('e-7b3d9f21-4c6a-4e85-b0d2-1f8e6a9c3b57');
    expect(a!.id).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(a!.id).not.toBe(b!.id);
    expect(a!.content.parts[0]!['functionCall']!.id).toBe(b!.content.parts[0]!['functionResponse']!.id);
  });

  it('starts integer-ms timestamps at the mock default and keeps every gap', () => {
    const n = createNormalizer('rec', 'adk-js', js);
    const stamps = js.map((f) => (JSON.parse(n.frame(f)) as { timestamp: number }).timestamp);
    expect(stamps).toEqual([normalizedStartMs, normalizedStartMs + 250]);
  });

  it('writes float-second timestamps the way Python writes a float', () => {
    const py = ['{"invocationId":"e-1","id":"0b1a6c2e-3f4d-4e5a-9b8c-7d6e5f4a3b2c","timestamp":1767879087.399263}', '{"invocationId":"e-1","id":"1b1a6c2e-3f4d-4e5a-9b8c-7d6e5f4a3b2c","timestamp":1767879088.399263}'];
    const n = createNormalizer('rec', 'adk-python', py);
    expect(py.map((f) => /"timestamp":([0-9.]+)/.exec(n.frame(f))?.[1])).toEqual(['1795318500.0', '1795318501.0']);
  });

  it('is deterministic for one seed and changes every byte it does not own not at all', () => {
    const a = createNormalizer('rec', 'adk-js', js).frame(js[0]!);
    const b = createNormalizer('rec', 'adk-js', js).frame(js[0]!);
    expect(a).toBe(b);
    expect(a.replace(/"(e-|adk-)?[A-Za-z0-9-]{8,}"/g, '"ID"').replace(/\d{13}/, 'T')).toBe(js[0]!.replace(/"(e-|adk-)?[A-Za-z0-9-]{8,}"/g, '"ID"').replace(/\d{13}/, 'T'));
  });

  it('leaves frames that are not JSON untouched', () => {
    expect(createNormalizer('rec', 'adk-js', ['[DONE]']).frame('[DONE]')).toBe('[DONE]');
  });
});
