/**
 * vitest's globalSetup: one scratch folder for the whole test run, removed when it ends. Tests make
 * their report folders, configs and fake packages with `mkdtemp(tmpdir())`; many keep them for the
 * failure message and none can know when the last reader is done. A run used to leave about sixty
 * folders in /tmp. TMPDIR is set before the workers start, so `os.tmpdir()` in every test file (and
 * Python's `tempfile` in the processes they start) points here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const outer = process.env.TMPDIR;
  const scratch = mkdtempSync(join(tmpdir(), 'adk-conformance-tests-'));
  process.env.TMPDIR = scratch;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = outer;
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  };
}
