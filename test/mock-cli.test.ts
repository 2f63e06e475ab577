/**
 * `adk-conformance mock`: options, the banner, scenario load errors that never stop the others,
 * and a clean stop on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../cli/args.ts';
import { run } from '../cli/commands/mock.ts';
import { defaultScenariosDir } from '../scenarios/loader.ts';
import { rawRequest } from './mock-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'mock-cli-'));
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

/** Run the command in-process until `whileServing` is done with the URL it printed. */
async function serve(argv: string[], whileServing: (url: string) => Promise<void>) {
  const out: string[] = [];
  const err: string[] = [];
  let stop: (signal: string) => void = () => {};
  let served: Promise<void> = Promise.resolve();
  const code = await run(argv, {
    out: (line) => {
      out.push(line);
      const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url) served = whileServing(url).finally(() => stop('SIGTERM'));
    },
    err: (line) => err.push(line),
    stopSignal: new Promise((resolve) => { stop = resolve; }),
  });
  await served;
  return { code, out, err };
}

describe('adk-conformance mock', () => {
  it('prints the listening URL with the port the kernel chose and the scenario count, then stops on a signal', async () => {
    let health = 0;
    const { code, out } = await serve(['--port', '0', '--host', '127.0.0.1'], async (url) => { health = (await rawRequest(url, { path: '/health' })).status; });
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^mock ADK server \(adk-js@2\.0\) listening on http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(out[1]).toMatch(/^\d+ scenarios loaded$/);
    expect(health).toBe(200);
  });

  it('names the pinned scenarios it serves in another dialect than --dialect (issue 31 §4: cedar_creek_briefing in adk-python under --dialect adk-js)', async () => {
    const { out } = await serve(['--port', '0', '--dialect', 'adk-js'], async () => {});
    const line = out.find((l) => l.includes('pinned')) ?? '';
    expect(line).toMatch(/^\d+ pinned to another server's captured bytes, served in its dialect, not adk-js@2\.0: .*cedar_creek_briefing \(adk-python@1\.x-genC\)/);
    // Under the dialect they are pinned to, they are no exception.
    const python = await serve(['--port', '0', '--dialect', 'adk-python'], async () => {});
    expect(python.out.join('\n')).not.toMatch(/cedar_creek_briefing \(adk-python/);
  });

  it('refuses a folder some of whose files do not load, unless --allow-partial', async () => {
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    writeFileSync(join(dir, 'plain_text.json'), readFileSync(join(defaultScenariosDir, 'plain_text.json')));
    await expect(run(['--port', '0', '--scenarios', dir], { out: () => {}, err: () => {} })).rejects.toThrow(/1 scenario files in .* did not load .*--allow-partial to serve the 1 that did/);
  });

  it('with --allow-partial, reports a scenario file that does not load and serves the others', async () => {
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    writeFileSync(join(dir, 'plain_text.json'), readFileSync(join(defaultScenariosDir, 'plain_text.json')));
    let apps = '';
    const { code, out, err } = await serve(['--port', '0', '--dialect', 'adk-python', '--allow-partial', '--scenarios', dir], async (url) => { apps = (await rawRequest(url, { path: '/list-apps' })).body.toString(); });
    expect(code).toBe(0);
    expect(out[0]).toContain('(adk-python@1.x-genC)');
    expect(out[1]).toBe('1 scenarios loaded; 1 files not loaded (see above)');
    expect(err.join('\n')).toMatch(/scenario not loaded: .*broken\.json/);
    expect(apps).toBe('["plain_text"]');
  });

  it('refuses an unknown dialect, naming the known ones', async () => {
    await expect(run(['--dialect', 'go'], { out: () => {}, err: () => {} })).rejects.toThrow(/--dialect must be one of adk-js@2.0 \(alias adk-js\), adk-js@1.4-1.6, adk-python@1.x-genC \(alias adk-python\), adk-python@2.x, adk-go@2.0.0/);
  });

  it('refuses a PORT environment value that is not a port', async () => {
    const saved = process.env['PORT'];
    process.env['PORT'] = 'eighty';
    try {
      await expect(run([], { out: () => {}, err: () => {} })).rejects.toThrow(UsageError);
      await expect(run([], { out: () => {}, err: () => {} })).rejects.toThrow(/PORT environment variable/);
    } finally {
      if (saved === undefined) delete process.env['PORT'];
      else process.env['PORT'] = saved;
    }
  });

  it('stops cleanly on SIGTERM when run as a process', async () => {
    const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'bin', 'adk-conformance.js'), 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(stdout)) resolve();
      });
      child.on('exit', () => reject(new Error(`the mock exited before listening: ${stdout}`)));
    });
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(stdout).toContain('SIGTERM: closing the mock');
  });
});

describe('adk-conformance mock on a busy port', () => {
  it('refuses a port already in use, saying how to fix it', async () => {
    let busy = '';
    await serve(['--port', '0'], async (url) => {
      busy = new URL(url).port;
      await expect(run(['--port', busy], { out: () => {}, err: () => {}, stopSignal: new Promise(() => {}) })).rejects.toThrow(/already in use; pick another --port/);
    });
    expect(busy).not.toBe('');
  });
});
