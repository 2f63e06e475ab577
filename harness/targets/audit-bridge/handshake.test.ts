/**
 * The audit bridge's optional handshake (issue 30 §1): a bridge that answers `start` is named; one
 * that refuses it (seed 000's shape) is certified as before; a malformed answer is a finding.
 */
import { describe, expect, it } from 'vitest';
import { commandBackend } from './backend.ts';

const limits = () => ({ answerMs: 5000, signal: new AbortController().signal });

describe('audit bridge handshake', () => {
  it('the example bridge names itself; the seed-shaped bridge refuses start and keeps its shape', async () => {
    const kit = await commandBackend('python3 examples/python-audit-bridge/bridge.py').open(undefined, limits());
    const seed = await commandBackend('python3 examples/python-audit-bridge/seed_bridge.py').open(undefined, limits());
    try {
      expect(kit.implementation).toBe('adk-conformance example audit bridge 0.1.0 (python)');
      expect(kit.shape).toBe('kit');
      expect(seed.implementation).toBeUndefined();
      expect(seed.shape).toBe('seed');
    } finally {
      await kit.close();
      await seed.close();
    }
  });

  it('an answer to start without name, version and language is answer-malformed', async () => {
    const cmd = `python3 -c "
import sys, json
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({'id': r['id'], 'ok': True, 'ready': True}), flush=True)
"`;
    await expect(commandBackend(cmd).open(undefined, limits())).rejects.toMatchObject({ kind: 'answer-malformed', message: expect.stringMatching(/no "implementation"/) });
  });
});
