import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { UsageError } from '../args.ts';
import { locateJsonError, resolveSchema, run, type CommandIo } from './validate.ts';

const event = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ event_id: id, correlation_id: 'c-1', type: 'STATUS', source_agent: 'coordinator', content: { summary: 'Thinking' }, ...extra });

function capture(stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), stdin: Readable.from([Buffer.from(stdin)]) };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

let dir: string;
const file = async (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
};
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'adk-validate-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('validate', () => {
  it('a file of valid events exits 0 with a summary, ignoring empty lines and CRLF', async () => {
    const path = await file('ok.ndjson', `${event('a')}\r\n\n   \n${event('b')}\n`);
    const c = capture();
    expect(await run([path], c.io)).toBe(0);
    expect(c.out()).toBe(`${path}: 2 lines against agent-briefing-event: 2 valid, 0 invalid (0 errors).\n`);
  });

  it('prints FILE:LINE: pointer message for each schema error and exits 1', async () => {
    const path = await file('bad.ndjson', [event('a'), event('b', { type: 'NOISE', content: {} }), ''].join('\n'));
    const c = capture();
    expect(await run([path], c.io)).toBe(1);
    const lines = c.out().trim().split('\n');
    expect(lines).toContain(`${path}:2: /type must be equal to one of the allowed values ("INSIGHT", "ALERT", "ACTION", "STATUS")`);
    expect(lines).toContain(`${path}:2: /content must have required property 'summary'`);
    expect(lines.at(-1)).toBe(`${path}: 2 lines against agent-briefing-event: 1 valid, 1 invalid (2 errors).`);
  });

  it('names the line and column of a line that is not JSON', async () => {
    const path = await file('notjson.ndjson', `${event('a')}\n{"event_id": "x",}\n`);
    const c = capture();
    expect(await run([path], c.io)).toBe(1);
    expect(c.out()).toContain(`${path}:2:18: invalid JSON: unexpected character "}" (expected a property name in double quotes)`);
  });

  it('reports invalid UTF-8 on its line', async () => {
    const path = await file('utf8.ndjson', Buffer.concat([Buffer.from(`${event('a')}\n`), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]));
    const c = capture();
    expect(await run([path], c.io)).toBe(1);
    expect(c.out()).toContain(`${path}:2: invalid UTF-8`);
  });

  it('reads stdin with -', async () => {
    const c = capture(`\uFEFF${event('a')}\n${event('b', { type: 1 })}`);
    expect(await run(['-'], c.io)).toBe(1);
    expect(c.out()).toContain('<stdin>:2: /type must be equal to one of the allowed values');
    expect(c.out()).toContain('<stdin>: 2 lines against agent-briefing-event: 1 valid, 1 invalid');
  });

  it('validates against another schema or one definition of it', async () => {
    const c = capture('{"error":"boom"}\n');
    expect(await run(['-', '--schema', 'sse-error-frame'], c.io)).toBe(0);
    expect(() => resolveSchema('adk-event#/definitions/nope')).toThrow(UsageError);
  });

  it('an empty stream exits 1: it proves nothing', async () => {
    const c = capture('\n\n');
    expect(await run(['-'], c.io)).toBe(1);
    expect(c.out()).toContain('no line to validate');
  });

  it('an unknown schema is a usage error naming the nearest one', async () => {
    await expect(run(['-', '--schema', 'agent-briefing'], capture().io)).rejects.toThrow("unknown schema 'agent-briefing' (did you mean 'agent-briefing-event'?)");
    await expect(run(['-', '--schema', 'agent_briefing_evnt'], capture().io)).rejects.toThrow("(did you mean 'agent-briefing-event'?)");
    await expect(run(['-', '--schema', 'reprot'], capture().io)).rejects.toThrow("unknown schema 'reprot' (did you mean 'report'?)");
  });

  it('a missing file or no file is a usage error naming it', async () => {
    await expect(run([join(dir, 'absent.ndjson')], capture().io)).rejects.toThrow(/cannot read .*absent.ndjson/);
    await expect(run([], capture().io)).rejects.toThrow(/no file given/);
  });

  it('exits 2 through the CLI on a usage error and 1 on invalid input', async () => {
    const bad = await file('cli.ndjson', '{"type":"STATUS"}\n');
    const cli = (args: string[]) => spawnSync(process.execPath, ['bin/adk-conformance.js', 'validate', ...args], { encoding: 'utf8', timeout: 60_000 });
    const usage = cli([bad, '--schema', 'nope']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("unknown schema 'nope'");
    const invalid = cli([bad]);
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toContain(`${bad}:1: (root) must have required property 'event_id'`);
  });
});

describe('locateJsonError', () => {
  it.each([
    ['{"a":1', 7, 'the line ends'],
    ['[1,2,]', 6, 'unexpected character "]"'],
    ['{"a": tru}', 7, 'expected true'],
    ['"x\\q"', 3, 'invalid escape \\q'],
    ['01', 2, 'invalid number'],
    ['{} x', 4, 'after the JSON value'],
    ['"é\u0001"', 3, 'control character'],
  ])('%j fails at column %i', (text, column, message) => {
    const found = locateJsonError(text);
    expect(found?.column).toBe(column);
    expect(found?.message).toContain(message);
  });

  it('agrees with JSON.parse on what is JSON, over generated near-JSON lines', () => {
    const seed = 90210;
    console.log(`fast-check seed ${seed}`);
    const mutate = fc.tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', '\\', '\u0001'));
    fc.assert(fc.property(mutate, ([json, at, insert]) => {
      const text = json.slice(0, at % (json.length + 1)) + insert + json.slice(at % (json.length + 1));
      let parses = true;
      try { JSON.parse(text); } catch { parses = false; }
      expect(locateJsonError(text) === undefined).toBe(parses);
    }), { seed, numRuns: 1000 });
  });
});
