/**
 * `run --proxy-cmd` and `run --proxy`: the independent Python proxy is fully compliant by command,
 * the reference by URL (harness/mutants/proxy.mutants.test.ts certifies the reference's command), a
 * mutant fails with its requirement id, and an unreachable proxy URL cannot be evaluated
 * (docs/proxy-contract.md).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSseProxy } from '../reference-impl/sse-proxy.ts';
import { freePort } from '../harness/targets/gateway/instances.ts';
import { proxyMutantCommand } from '../harness/mutants/proxy/index.ts';
import { runCli } from './cli-support.ts';

const out = () => mkdtempSync(join(tmpdir(), 'adk-proxy-'));

describe('run --proxy-cmd / --proxy', () => {
  it('certifies the independent Python proxy (examples/python-proxy, written from the contract alone) fully compliant (exit 0)', async () => {
    const r = await runCli(['run', '--proxy-cmd', 'python3 examples/python-proxy/proxy.py', '--out', out()]);
    expect(r.stdout).toMatch(/^requirements: MUST 8 passed, 0 failed, 0 untested/m);
    expect(r.stdout).toMatch(/^verdict: fully compliant/m);
    expect(r.code).toBe(0);
  }, 60_000);

  it('certifies a proxy given by URL whose BACKEND_URL is the --backend-port (exit 0)', async () => {
    // The port freePort() found is free again once it answers, and the proxy listens on any port: the kernel
    // once gave it the same one (clean-clone CI of 44d38b6: "port 33943 on 127.0.0.1 is in use"), so a pair
    // that collides is drawn again.
    const pair = async () => {
      const port = await freePort();
      return { backendPort: port, proxy: await startSseProxy({ config: { backendUrl: `http://127.0.0.1:${port}` } }) };
    };
    let { backendPort, proxy } = await pair();
    for (let i = 0; i < 3 && new URL(proxy.url).port === String(backendPort); i++) {
      await proxy.close();
      ({ backendPort, proxy } = await pair());
    }
    try {
      const r = await runCli(['run', '--proxy', proxy.url, '--backend-port', String(backendPort), '--grep', 'plain_text', '--out', out()]);
      expect(r.stdout).toMatch(/^verdict: fully compliant/m);
      expect(r.code).toBe(0);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('fails the proxy that re-frames events with PRX-PASS-001 (exit 1)', async () => {
    const r = await runCli(['run', '--proxy-cmd', proxyMutantCommand('reframes-events'), '--grep', 'framing_crlf', '--out', out()]);
    expect(r.stdout).toMatch(/^FAIL PRX-PASS-001 /m);
    expect(r.stdout).toMatch(/the client's body differs from the backend's at byte/);
    expect(r.code).toBe(1);
  }, 60_000);

  it('cannot evaluate a proxy URL nothing listens on (exit 3), and says how to start it', async () => {
    const r = await runCli(['run', '--proxy', 'http://127.0.0.1:1', '--out', out()]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^verdict: could not evaluate/m);
    expect(r.stderr).toMatch(/BACKEND_URL=http:\/\/127\.0\.0\.1:8000/);
  }, 30_000);

  it('refuses --backend-port without --proxy URL (exit 2)', async () => {
    const r = await runCli(['run', '--proxy-cmd', 'node bin/adk-conformance.js proxy', '--backend-port', '9000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--backend-port goes with --proxy URL/);
  });
});
