/**
 * What a new user following the README met in the first hour (issue 15 §2), each fixed and held
 * here: shell-safe secrets, a busy mock port, an unquoted command, a crash's reason said once, a
 * mock that loads nothing, enum errors that name the values, lint labels, pretty-printed JSON
 * given to validate, and the run's counts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clipReason } from '../harness/certify.ts';
import { runCli } from './cli-support.ts';

const root = join(import.meta.dirname, '..');
const tmp = () => mkdtempSync(join(tmpdir(), 'adk-first-hour-'));

describe('the first hour', () => {
  it('README and docs use secrets an interactive shell leaves alone (no !, $, backtick or quote)', () => {
    for (const file of ['README.md', 'docs/gateway.md', 'examples/fastapi-gateway/README.md']) {
      const text = readFileSync(join(root, file), 'utf8');
      const secrets = [...text.matchAll(/(?:--secret |JWT_SECRET=)([^\s)]+)/g)].map((m) => m[1] ?? '');
      expect(secrets.length, file).toBeGreaterThan(0);
      for (const s of secrets) expect(s, `${file}: ${s}`).toMatch(/^[A-Za-z0-9._-]{32,}$/);
    }
    // The README's one-liner, pasted into an interactive bash, gives a token.
    const r = spawnSync('bash', ['-ic', 'TOKEN=$(node bin/adk-conformance.js gateway token --secret a-development-secret-of-32-bytes); echo "$TOKEN"'], { cwd: root, encoding: 'utf8' });
    expect(r.stdout.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('run --gateway with the mock port taken says which port and how to move (exit 2)', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const gateway = net.createServer((s) => s.destroy());
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    try {
      const r = await runCli(['run', '--gateway', `http://127.0.0.1:${(gateway.address() as net.AddressInfo).port}`, '--mock-port', String(port), '--out', tmp()]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
      expect(r.stderr).toContain('--mock-port N');
      expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    } finally {
      blocker.close();
      gateway.close();
    }
  }, 30_000);

  it('an unquoted command is a usage error that shows the quoted form (exit 2)', async () => {
    const r = await runCli(['run', '--transformer-cmd', 'python3', 'examples/python-transformer/transformer.py']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--transformer-cmd "python3 examples/python-transformer/transformer.py"');
  });

  it('a stderr tail quoted twice in one reason is said once, and a long reason is cut', () => {
    const reason = 'it exited with status 1, having written only to stderr (Traceback | ValueError: boom); not run: the transformer exited with code 1 before writing an event (stderr: ValueError: boom) on the first 3 scenarios';
    expect(clipReason(reason)).toBe('it exited with status 1, having written only to stderr (Traceback | ValueError: boom); not run: the transformer exited with code 1 before writing an event on the first 3 scenarios');
    expect(clipReason('x'.repeat(1000)).length).toBe(360);
  });

  it('a crashing transformer\'s traceback is printed once as a reason and once as a finding, not per scenario or requirement', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'crash.py'), 'import sys\nfor line in sys.stdin:\n    raise ValueError("boom")\n');
    const r = await runCli(['run', '--transformer-cmd', `python3 ${join(dir, 'crash.py')}`, '--generated', '0', '--out', dir]);
    expect(r.code).toBe(1);
    // Once as the untested requirements' reason, once as the failed one's finding; never per scenario or per requirement.
    expect(r.stdout.match(/ValueError: boom/g)?.length).toBe(2);
    expect(r.stdout).toMatch(/reason: as for ABE-SCHEMA-001 above/);
    // The first scenarios (by name) collapse into one line; which they are depends on the corpus.
    expect(r.stdout).toMatch(/\(the same in [a-z0-9_]+/);
  }, 60_000);

  it('mock --scenarios refuses a folder where nothing loads, and a partial one without --allow-partial (exit 2); enum errors name the values', async () => {
    const empty = tmp();
    writeFileSync(join(empty, 'x.json'), '{"id":"x"}');
    const none = await runCli(['mock', '--scenarios', empty, '--port', '0']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no scenario loaded from .*; the mock would serve nothing/);
    const partial = tmp();
    const good = JSON.parse(readFileSync(join(root, 'scenarios', 'plain_text.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(partial, 'plain_text.json'), JSON.stringify(good));
    writeFileSync(join(partial, 'bad_dialect.json'), JSON.stringify({ ...good, id: 'bad_dialect', dialect: 'adk-jss' }));
    const some = await runCli(['mock', '--scenarios', partial, '--port', '0']);
    expect(some.code).toBe(2);
    expect(some.stderr).toContain('/dialect: must be equal to one of the allowed values ("adk-js@2.0"');
    expect(some.stderr).toContain('--allow-partial');
    const lint = await runCli(['lint-scenarios', partial]);
    expect(lint.stdout).toContain('(fails rule schema-valid)');
  }, 30_000);

  it('validate says once that a pretty-printed JSON file is not NDJSON, then judges its values, not its lines', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'events.json'), JSON.stringify([{ a: 1 }, { b: 2 }], null, 2));
    const r = await runCli(['validate', join(dir, 'events.json')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('not NDJSON but one pretty-printed JSON array over 8 lines: each of its 2 elements is validated');
    expect(r.stdout).toContain("jq -c '.[]'");
    expect(r.stdout).toMatch(/events\.json\[0\]: \(root\) must have required property/);
    expect(r.stdout).not.toMatch(/events\.json:\d+:/);
    expect(r.stdout).toMatch(/2 lines against agent-briefing-event: 0 valid, 2 invalid/);
  });

  it('the summary counts scenario runs and says how they relate to the header\'s scenarios', async () => {
    const r = await runCli(['run', '--transformer-module', 'harness/targets/transformer/reference.ts', '--generated', '0', '--grep', 'plain_text', '--out', tmp()]);
    expect(r.stdout).toMatch(/^runs: \d+\/\d+ passed, 0 failed, 0 errored \(\d+ runs? of \d+ scenarios? in 1 part, and \d+ probe runs?\)/m);
  }, 60_000);
});
