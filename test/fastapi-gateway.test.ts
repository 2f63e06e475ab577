/**
 * The FastAPI example gateway (examples/fastapi-gateway: seed 004's /run_sse gateway in the seed's
 * own stack, FastAPI + httpx + PyJWT on uvicorn) certified the way a team certifies its gateway:
 * the `adk-conformance run --gateway-cmd` CLI as a child process, against the real mock, corpus and
 * probes, with a pinned seed. It must earn exactly `fully compliant` and exit 0.
 *
 * It runs on Debian's /usr/bin/python3 with python3-fastapi, python3-uvicorn, python3-httpx,
 * python3-jwt and python3-cryptography (`npm test` installs them first through
 * scripts/ensure-debian-packages.sh). When they cannot be imported the test fails and says how to
 * install them: it never skips.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-support.ts';
import { afterAll, describe, expect, it } from 'vitest';

const PYTHON = '/usr/bin/python3';
const GATEWAY_CMD = `${PYTHON} examples/fastapi-gateway/gateway.py`;
const DEBIAN_PACKAGES = 'python3-fastapi python3-uvicorn python3-httpx python3-jwt python3-cryptography';
const INSTALL = `sudo apt-get update && sudo apt-get install -y ${DEBIAN_PACKAGES}`;

const out = mkdtempSync(join(tmpdir(), 'adk-fastapi-gateway-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));


describe('the FastAPI example gateway (seed 004 in its own stack)', () => {
  it('has its Debian Python packages importable by /usr/bin/python3', () => {
    const probe = spawnSync(PYTHON, ['-c', 'import fastapi, uvicorn, httpx, jwt, cryptography'], { encoding: 'utf8' });
    const problem = probe.error ? `${PYTHON} cannot run (${probe.error.message})` : (probe.stderr ?? '').trim().split('\n').slice(-1)[0];
    expect(
      probe.status,
      `examples/fastapi-gateway needs Debian's ${DEBIAN_PACKAGES} (for ${PYTHON}): ${problem}\ninstall them with: ${INSTALL}\n(npm test tries this itself through scripts/ensure-debian-packages.sh when it runs as root or with passwordless sudo)`,
    ).toBe(0);
  });

  it('is certified fully compliant through --gateway-cmd with a pinned seed: verdict line, exit code 0 and report.json agree', async () => {
    // The example serves the cookie proxy route and /run_sse_enhanced as well: declared, so they are judged.
    const { code, stdout, stderr } = await runCli(['run', '--gateway-cmd', GATEWAY_CMD, '--gateway-serves', 'cookie-proxy,run-sse-enhanced', '--out', out, '--seed', '4004']);
    const tail = `\n--- stdout (end) ---\n${stdout.slice(-4000)}\n--- stderr (end) ---\n${stderr.slice(-2000)}`;
    const verdict = /^verdict: (.+?) \(/m.exec(stdout);
    expect(verdict, `no verdict line in the output:${tail}`).not.toBeNull();
    expect(verdict?.[1], `the verdict is not 'fully compliant':${tail}`).toBe('fully compliant');
    expect(code, `exit code:${tail}`).toBe(0);

    for (const file of ['report.json', 'junit.xml', 'report.md', 'report.html']) expect(existsSync(join(out, file)), file).toBe(true);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      verdict: string;
      seed: unknown;
      target: { description: string; parts: string[] };
      requirements: Array<{ id: string; status: string }>;
    };
    expect(report.verdict).toBe('fully compliant');
    expect(String(report.seed)).toBe('4004');
    expect(report.target.parts).toEqual(['gateway']);
    expect(report.target.description).toContain(GATEWAY_CMD);
    // Every gateway requirement was exercised and passed: none failed, untested or set aside.
    const gw = report.requirements.filter((r) => r.id.startsWith('GW-'));
    expect(gw.length).toBeGreaterThanOrEqual(27);
    expect(gw.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}`)).toEqual([]);
  }, 240_000);
});
