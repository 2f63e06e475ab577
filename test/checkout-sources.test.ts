/**
 * The checkout's own path: `npm ci && npm start` runs the TypeScript sources through tsx, with no
 * build (bin/adk-conformance.js). The other tests start the kit compiled in dist/ (vitest.config.ts,
 * scripts/compiled-for-tests.ts), so this one starts it as a fresh clone does: without
 * ADK_CONFORMANCE_FROM_DIST, every kit process it launches (the reference gateway and proxy) too.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-support.ts';

const out = mkdtempSync(join(tmpdir(), 'adk-checkout-sources-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the checkout, run from its sources', () => {
  it('certifies every reference part on a scenario through the bin, its gateway and proxy from the sources too', async () => {
    const r = await runCli(['run', '--grep', 'plain_text', '--generated', '0', '--reporter', 'json', '--out', out], { ADK_CONFORMANCE_FROM_DIST: '0' });
    expect(r.stdout, r.stderr).toMatch(/^verdict: fully compliant/m);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { target: { parts: string[] } };
    expect([...report.target.parts].sort()).toEqual(['audit-bridge', 'client', 'gateway', 'normalizer', 'proof-stream', 'proxy', 'transformer']);
  }, 120_000);
});
