import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { UsageError } from '../cli/args.ts';
import { run as lintScenarios } from '../cli/commands/lint-scenarios.ts';
import { run as listScenarios } from '../cli/commands/scenarios.ts';

/** Run a command with stdout and stderr captured. */
async function capture(run: (argv: string[]) => Promise<number>, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { out += String(chunk); return true; });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { err += String(chunk); return true; });
  try {
    return { code: await run(argv), out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scenario-commands-'));
  writeFileSync(join(dir, 'bad_style.json'), JSON.stringify({
    id: 'bad_style',
    title: 'the run should end at EOF',
    family: 'streaming',
    tags: ['text'],
    specRefs: [{ doc: 'adk-wire-format', section: '§5a' }],
    dialect: 'adk-js',
    replays: 'adk-js 2.0.0',
    session: { userId: 'u1', sessionId: 's1' },
    request: { message: 'hi' },
    upstream: { kind: 'run', steps: [{ model: { author: 'assistant', text: 'hello' } }] },
    expect: { status: 200, outcome: 'complete', frames: 1, completionPoint: 0 },
  }));
  writeFileSync(join(dir, 'broken.json'), '{"id": "broken",');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('adk-conformance lint-scenarios', () => {
  test('the shipped corpus lints clean and exits 0', async () => {
    const { code, out } = await capture(lintScenarios, []);
    expect(code).toBe(0);
    expect(out).toMatch(/^lint-scenarios: \d+ scenario files in .*scenarios, no issues\n$/);
  });

  test('issues print as file: path: message with a summary, and exit 1', async () => {
    const { code, out } = await capture(lintScenarios, [dir]);
    expect(code).toBe(1);
    expect(out).toContain(`${join(dir, 'bad_style.json')}: /title: say what happens ("X emits Y"), not what should happen: remove "should" from title (fails rule statement-style)`);
    expect(out).toMatch(/broken\.json: \/: line 1, column 17: .* \(fails rule json-syntax\)/);
    expect(out).toMatch(/\nlint-scenarios: 2 issues in 2 files \(2 scenario files in .*\)\n$/);
  });

  test('a missing folder is a usage error naming it', async () => {
    await expect(lintScenarios([join(dir, 'nope')])).rejects.toThrow(UsageError);
  });

  test('two folders are a usage error', async () => {
    await expect(lintScenarios(['a', 'b'])).rejects.toThrow(/at most one folder/);
  });
});

describe('adk-conformance scenarios', () => {
  test('the table lists id, family, dialect, tags and spec references of every scenario', async () => {
    const { code, out } = await capture(listScenarios, []);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id +family +dialect +tags +spec references$/);
    // A pinned run is named as pinned: the mock serves it in its own dialect whatever its --dialect (issue 31 §4).
    expect(out).toMatch(/\ncedar_creek_briefing +delegation +adk-python@1\.x-genC \(pinned\) +seed-capture,.* +seed-001 Event Flow Sequence;/);
    expect(out).toMatch(/\nplain_text +\S+ +adk-js@2\.0,[^ ]+ +[a-z]/);
    expect(lines[lines.length - 1]).toMatch(/^\d+ scenarios; \d+ marked \(pinned\) replay captured bytes: they render only in their own dialect, whatever the mock's --dialect$/);
  });

  test('--json prints an array, and --family and --tag filter it', async () => {
    const { out } = await capture(listScenarios, ['--json', '--family', 'missing-done', '--tag', 'hold-open']);
    const rows = JSON.parse(out) as Array<{ id: string; family: string; dialects: string[]; specRefs: string[] }>;
    expect(rows.map((r) => r.id)).toEqual(['missing_done_hold_open', 'sub_agent_answer_then_root_adk_go', 'sub_agent_answer_then_root_python']);
    expect(rows[0]).toMatchObject({ family: 'missing-done', dialects: ['adk-js@2.0', 'adk-js@1.4-1.6', 'adk-python@1.x-genC', 'adk-python@2.x', 'adk-go@2.0.0'] });
  });

  test('dialects list every dialect a scenario renders in: every one for a run, its own for a pinned run or a byte script', async () => {
    const { out } = await capture(listScenarios, ['--json']);
    const rows = JSON.parse(out) as Array<{ id: string; dialects: string[] }>;
    const of = (id: string) => rows.find((r) => r.id === id)?.dialects;
    expect(of('plain_text')).toEqual(['adk-js@2.0', 'adk-js@1.4-1.6', 'adk-python@1.x-genC', 'adk-python@2.x', 'adk-go@2.0.0']);
    expect(of('thinking_chunks_python')).toEqual(['adk-python@1.x-genC', 'adk-js@2.0', 'adk-js@1.4-1.6', 'adk-python@2.x', 'adk-go@2.0.0']);
    expect(of('cedar_creek_briefing')).toEqual(['adk-python@1.x-genC']);
    expect(rows.find((r) => r.id === 'cedar_creek_briefing')).toMatchObject({ pinned: expect.stringContaining('seed 001') });
    expect(of('framing_huge_event')).toEqual(['adk-js@2.0']);
  });

  test('an unknown family is a usage error that suggests the nearest', async () => {
    await expect(listScenarios(['--family', 'framin'])).rejects.toThrow(/unknown family 'framin' \(did you mean 'framing'\?\)/);
  });

  test('a folder with a broken file lists the good ones, reports the broken one and exits 1', async () => {
    const { code, out, err } = await capture(listScenarios, ['--dir', dir, '--json']);
    expect(code).toBe(1);
    expect((JSON.parse(out) as Array<{ id: string }>).map((r) => r.id)).toEqual(['bad_style']);
    expect(err).toMatch(/skipped .*broken\.json: \/: line 1, column 17/);
  });
});
