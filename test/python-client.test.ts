/**
 * The corpus is language-neutral: examples/python-client/replay.py (standard library only)
 * replays scenarios against a real mock on 127.0.0.1 and compares what arrived with each file's
 * expectations, exiting 0 when they hold and 1 when they do not.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock-adk/server/start.ts';
import { defaultScenariosDir } from '../scenarios/loader.ts';

const script = join(import.meta.dirname, '..', 'examples', 'python-client', 'replay.py');
const dir = mkdtempSync(join(tmpdir(), 'python-client-'));
let mock: RunningMock;

beforeAll(async () => { mock = await startMock({ host: '127.0.0.1', port: 0 }); });
afterAll(async () => { await mock.close(); rmSync(dir, { recursive: true, force: true }); });

async function replay(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('python3', [script, '--mock', mock.url, '--scenario', file, '--idle-seconds', '1'], { timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('the Python client example', () => {
  it.each([
    ['cedar_creek_briefing', 'a Python-dialect delegation run', 4],
    ['cedar_creek_briefing_seed_events', 'a byte script compared byte for byte', 5],
    ['framing_crlf_split_every_byte', 'CRLF line ends split across one-byte writes', 4],
    ['error_frame_python_legacy_invalid_json', 'an error frame that is not JSON', 4],
    ['missing_done_hold_open', 'a stream held open after the final answer', 4],
    ['session_not_found', 'a 404 before any stream', 1],
  ])('replays %s (%s) and finds every expectation met', async (id, _what, checks) => {
    const { code, stdout } = await replay(join(defaultScenariosDir, `${id}.json`));
    expect(stdout).toContain(`${id}: ${checks} passed, 0 failed`);
    expect(code).toBe(0);
  });

  it('exits 1 and names the check when the scenario expects something else', async () => {
    const scenario = JSON.parse(readFileSync(join(defaultScenariosDir, 'plain_text.json'), 'utf8')) as { expect: { frames: number } };
    scenario.expect.frames = 9;
    const file = join(dir, 'plain_text.json');
    writeFileSync(file, JSON.stringify(scenario));
    const { code, stdout } = await replay(file);
    expect(stdout).toContain('FAIL plain_text frames: expected 9 frames, got 1');
    expect(code).toBe(1);
  });

  it('exits 2 on a file that is not a scenario', async () => {
    const file = join(dir, 'nothing.json');
    writeFileSync(file, '{"id": "x"}');
    const { code, stderr } = await replay(file);
    expect(stderr).toContain("not a scenario (no 'session')");
    expect(code).toBe(2);
  });
});
