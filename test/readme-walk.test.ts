/**
 * A new user's first hour, walked from the README itself (issue 31 "Done when"): every
 * `npx adk-conformance ...` command in its shell blocks names a command and flags the CLI has
 * (each checked against that command's --help), and the commands that finish on their own or
 * print a claimed line are run and checked against what the README says they print.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'adk-conformance.js');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** Shell words of one command line (quotes kept out, no expansion). */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

type Invocation = { line: string; args: string[]; prints?: string };

/** Every `npx adk-conformance` invocation in the README's sh blocks, continuations joined. */
function invocations(): Invocation[] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const out: Invocation[] = [];
  for (const block of blocks) {
    const lines = block.replace(/\\\n\s*/g, ' ').split('\n');
    for (const line of lines) {
      const prints = /#\s*prints:\s*(.+)$/.exec(line)?.[1]?.trim();
      const code = line.replace(/\s#.*$/, '');
      for (const m of code.matchAll(/npx adk-conformance((?:\s+(?:"[^"]*"|'[^']*'|[^\s|&;)$]+))*)/g)) {
        out.push({ line: line.trim(), args: words(m[1] ?? ''), ...(prints ? { prints } : {}) });
      }
    }
  }
  return out;
}

const helps = new Map<string, string>();
function helpOf(command: string[]): string {
  const key = command.join(' ');
  const known = helps.get(key);
  if (known !== undefined) return known;
  const r = spawnSync(process.execPath, [bin, ...command, '--help'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  expect(r.status, `adk-conformance ${key} --help: ${r.stderr}`).toBe(0);
  helps.set(key, r.stdout);
  return r.stdout;
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('the README, walked', () => {
  const all = invocations();

  it('finds the commands it shows', () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it('every command and every flag it uses exist (checked against the command\'s --help)', () => {
    const problems: string[] = [];
    for (const inv of all) {
      const [first, second] = inv.args;
      if (first === undefined || first.startsWith('-')) continue;
      const command = first === 'report' || (first === 'gateway' && second === 'token') ? [first, ...(second && !second.startsWith('-') ? [second] : [])] : [first];
      const help = helpOf(command);
      for (const flag of inv.args.filter((a) => /^--[a-z]/.test(a)).map((a) => a.replace(/=.*$/, ''))) {
        if (flag === '--help') continue;
        if (!new RegExp(`(^|[\\s,\\[])${flag}(?![\\w-])`, 'm').test(help)) problems.push(`${inv.line}: ${flag} is not in \`adk-conformance ${command.join(' ')} --help\``);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('`mock --port N` prints the line the README says it prints', async () => {
    const inv = all.find((i) => i.args[0] === 'mock' && i.prints !== undefined);
    expect(inv, 'the README shows `mock --port 8080   # prints: ...`').toBeDefined();
    const port = await freePort();
    const args = (inv?.args ?? []).map((a) => (a === '8080' ? String(port) : a));
    const claim = (inv?.prints ?? '').replaceAll('8080', String(port));
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`no line within 30 s; stdout: ${text}`)), 30_000);
        child.stdout.on('data', (b: Buffer) => { text += b.toString('utf8'); if (text.includes('listening on')) { clearTimeout(timer); resolve(text); } });
        child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code}: ${text}`)); });
      });
      expect(out).toContain(claim);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);

  it('the commands that finish on their own do what the README says: the version, the listing with pinned scenarios, a generated run offline, a token', () => {
    const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const version = run(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
    const listing = run(['scenarios']);
    expect(listing.status).toBe(0);
    expect(listing.stdout).toMatch(/cedar_creek_briefing.*\(pinned\)/);
    const frames = run(['frames', 'generated_4', '--seed', '7']);
    expect(frames.status, frames.stderr).toBe(0);
    expect(frames.stdout.trim().split('\n').length).toBeGreaterThan(0);
    expect(() => JSON.parse(frames.stdout.trim().split('\n')[0] ?? '')).not.toThrow();
    const secret = /--secret (\S+)/.exec(readme)?.[1] ?? '';
    const token = run(['gateway', 'token', '--secret', secret]);
    expect(token.stdout.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  }, 120_000);
});
