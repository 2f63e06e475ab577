/**
 * A module target Node cannot load, or without the part's factory, is a usage error before
 * anything starts, for every part alike, naming the file (and the line of a syntax error).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.ts';
import { checkModuleTarget, checkModuleTargets, moduleContracts } from './module-target.ts';
import { referenceNormalizerModule } from './normalizer/runner.ts';
import { referenceProofStreamModule } from './proof-stream/runner.ts';
import { referenceAdkServerModule } from './adk-server/runner.ts';

const dir = mkdtempSync(join(tmpdir(), 'adk-module-target-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => { const path = join(dir, name); writeFileSync(path, text); return path; };

describe('checkModuleTarget', () => {
  it('a module without the factory is a usage error saying what it exports and what to export, for every part', async () => {
    const path = file('no-export.mjs', 'export const x = 1;\n');
    for (const contract of Object.values(moduleContracts)) {
      const error = await checkModuleTarget(path, contract).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toBe(`--${contract.flag} ${path} exports no ${[contract.exportName, ...(('alternatives' in contract ? contract.alternatives : undefined) ?? [])].join(' or ')} function (it exports: x); export ${contract.shape} (${contract.doc}).`);
    }
  });

  // Syntax errors are reported by Node's and tsx's loaders, which vitest's own transform replaces: test/cli-usage.test.ts runs them through the CLI.

  it('top-level code that throws says so, with where', async () => {
    const path = file('throws.mjs', 'const a = 1;\nthrow new Error("no config");\n');
    await expect(checkModuleTarget(path, moduleContracts.transformer)).rejects.toThrow(`cannot be loaded: its top-level code threw Error: no config (at ${path}:2:7).`);
  });

  it('takes the factory from a default export where the runner does, and not for the audit bridge, whose runner does not', async () => {
    const path = file('default.mjs', 'export default { createBlockNormalizer() {}, createAuditBridge() {} };\n');
    await expect(checkModuleTarget(path, moduleContracts.normalizer)).resolves.toBeUndefined();
    await expect(checkModuleTarget(path, moduleContracts.auditBridge)).rejects.toThrow(/exports no createAuditBridge function \(it exports: default\)/);
  });

  it('the reference modules pass', async () => {
    await expect(checkModuleTargets({ reference: false, mockPort: 0, normalizer: { module: referenceNormalizerModule }, proofStream: { module: referenceProofStreamModule }, adkServer: { module: referenceAdkServerModule }, transformer: { command: 'x' } })).resolves.toBeUndefined();
  });
});
