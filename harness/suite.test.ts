import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partsTable } from './parts.ts';
import { runConformanceSuite, suiteParts, suiteTargetFlags, type SuiteOptions } from './suite.ts';
import { referenceAuditBridgeModule } from './targets/audit-bridge/module.ts';
import { referenceClientModule } from './targets/client/runner.ts';
import { referenceProofStreamModule } from './targets/proof-stream/runner.ts';

describe('runConformanceSuite options', () => {
  it('name every part `run` certifies, in the forms its flags have (harness/parts.ts)', () => {
    const certified = partsTable.filter((p) => Object.keys(p.flags).length > 0);
    expect(certified.map((p) => p.part).sort()).toEqual(Object.values(suiteParts).map((s) => s.part).sort());
    for (const info of certified) {
      const entry = Object.values(suiteParts).find((s) => s.part === info.part);
      // '--gateway URL' -> { url: 'gateway' }: the same forms, each the same flag.
      const fromTable = Object.fromEntries(Object.entries(info.flags).map(([form, text]) => [form, (text as string).split(' ')[0]?.replace(/^--/, '')]));
      expect(entry?.flags, info.part).toEqual(fromTable);
    }
  });

  it('become the flags run takes, one per part, with the run options beside them', () => {
    expect(suiteTargetFlags({
      gateway: { url: 'http://127.0.0.1:8000' }, transformer: { command: 'python3 t.py' }, normalizer: { module: 'n.ts' }, client: { command: 'c' },
      auditBridge: { module: 'a.ts' }, proofStream: { module: 'p.ts' }, proxy: { command: 'p' }, adkServer: { module: 's.ts' }, mockPort: 9000, startupTimeoutMs: 60_000,
    })).toEqual({
      gateway: 'http://127.0.0.1:8000', 'transformer-cmd': 'python3 t.py', 'normalizer-module': 'n.ts', 'client-cmd': 'c',
      'audit-bridge-module': 'a.ts', 'proof-stream-module': 'p.ts', 'proxy-cmd': 'p', 'adk-server-module': 's.ts', 'mock-port': '9000', 'startup-timeout': '60',
    });
  });

  it('refuse a part in a form it lacks, naming the forms it has', () => {
    expect(() => suiteTargetFlags({ proofStream: { command: 'node p.js' } } as unknown as SuiteOptions)).toThrow(/proofStream takes \{ module: string \} \(the proof-stream part, like --proof-stream-module\)/);
    expect(() => suiteTargetFlags({ gateway: { url: 'http://x', command: 'y' } } as unknown as SuiteOptions)).toThrow(/gateway takes \{ url: string \} or \{ command: string \}/);
  });

  it('refuse what run refuses, with its message', async () => {
    await expect(runConformanceSuite({ auditBridge: { module: join(tmpdir(), 'no-such-bridge.ts') } })).rejects.toThrow(/--audit-bridge-module .*no such file/);
    await expect(runConformanceSuite({ client: { module: referenceClientModule }, grep: ['no-such-scenario-xyz'] })).rejects.toThrow(/--grep no-such-scenario-xyz matches no requirement/);
  });
});

describe('runConformanceSuite', () => {
  it('certifies parts beyond the transformer, normaliser and gateway (audit bridge, client, proof-layer stream) and writes reports to outDir', async () => {
    const out = mkdtempSync(join(tmpdir(), 'adk-suite-test-'));
    const lines: string[] = [];
    try {
      const result = await runConformanceSuite({
        auditBridge: { module: referenceAuditBridgeModule }, client: { module: referenceClientModule }, proofStream: { module: referenceProofStreamModule },
        // The audit bridge records no entry for these two scenarios and the proof-layer stream is judged by
        // its probe: a grep of scenarios runs no probe it does not name.
        grep: ['plain_text', 'tool_error', 'probe:audit-bridge-bounds', 'probe:proof-stream'], outDir: out, log: (line) => lines.push(line),
      });
      expect([...result.target.parts].sort()).toEqual(['audit-bridge', 'client', 'proof-stream']);
      for (const part of ['audit-bridge', 'client', 'proof-stream'] as const) {
        expect(result.requirements.filter((r) => r.part === part && r.status === 'passed').length, `${part}: a requirement passed`).toBeGreaterThan(0);
      }
      expect(result.requirements.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([]);
      expect(result.requirements.find((r) => r.id === 'GW-HDR-001')?.status ?? 'not-applicable').toBe('not-applicable');
      expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).verdict).toBe(result.verdict);
      expect(existsSync(join(out, 'report.html'))).toBe(true);
      expect(lines.some((l) => l.startsWith('verdict: '))).toBe(true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
