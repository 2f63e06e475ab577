/**
 * The kit as others install it: `npm pack` produces a tarball, a fresh project installs it with
 * npm (offline first; nothing but the npm registry is reachable), then uses it through the bin
 * (`npx adk-conformance scenarios --json`, `npx adk-conformance run`) and through an import of
 * every public subpath the package's `exports` map declares.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../scenarios/loader.ts';

const repo = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'adk-pack-'));
const project = join(work, 'fresh-project');
const installed = join(project, 'node_modules', 'adk-conformance');

/** npm's own variables from an enclosing `npm test` would steer the child npm; drop them. */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

async function sh(file: string, args: string[], cwd: string, timeout = 240_000): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

let tarball = '';
beforeAll(async () => {
  const packed = await sh('npm', ['pack', '--pack-destination', work, '--json', '--loglevel=error'], repo);
  expect(packed.code, packed.stderr).toBe(0);
  tarball = join(work, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh-project', version: '1.0.0', private: true, type: 'module' }, null, 2));
  const install = await sh('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], project);
  expect(install.code, install.stderr).toBe(0);
}, 300_000);
afterAll(() => { rmSync(work, { recursive: true, force: true }); });

describe('the packed package', () => {
  it('leaves tests out of the tarball and ships the bin, the schemas and the corpus', () => {
    const names = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? names(join(dir, d.name)).map((n) => `${d.name}/${n}`) : [d.name]));
    const files = names(installed);
    expect(files).toContain('bin/adk-conformance.js');
    expect(files).toContain('schemas/scenario.schema.json');
    expect(files).toContain('scenarios/plain_text.json');
    expect(files.filter((f) => f.endsWith('.test.ts')), 'test files in the tarball: add "!**/*.test.ts" to package.json files').toEqual([]);
  });

  it('runs through the bin: npx adk-conformance scenarios --json lists the corpus', async () => {
    const { code, stdout, stderr } = await sh('npx', ['--no-install', 'adk-conformance', 'scenarios', '--json'], project, 60_000);
    expect(code, stderr).toBe(0);
    const ids = (JSON.parse(stdout) as Array<{ id: string }>).map((s) => s.id).sort();
    expect(ids).toEqual(loadScenarios().scenarios.map((s) => s.id).sort());
  });

  it('certifies the reference implementation through npx adk-conformance run', async () => {
    // --timeout-ms 60000: GW-MEM-002's memory probe runs within one scenario's bound, beside the other
    // parts; with the other test worker busy on a slow machine, 30 s measured 1,000 of the 2,000 runs it
    // needs and the verdict became MUST-compliant (GW-MEM-002 untested, "raise --timeout-ms"). This test
    // is about the package, not the machine's speed; the probe ends as soon as the heap is seen flat.
    const { code, stdout, stderr } = await sh('npx', ['--no-install', 'adk-conformance', 'run', '--seed', '3', '--reporter', 'json', '--out', 'reports', '--timeout-ms', '60000'], project, 240_000);
    expect(stdout, stderr).toMatch(/^verdict: fully compliant/m);
    expect(code).toBe(0);
    expect((JSON.parse(readFileSync(join(project, 'reports', 'report.json'), 'utf8')) as { verdict: string }).verdict).toBe('fully compliant');
  }, 300_000);

  it('imports every public subpath of its exports map', async () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
    const optionalPeers = Object.entries(manifest.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional).map(([name]) => name);
    const specifiers = Object.keys(manifest.exports).map((key) => {
      if (!key.includes('*')) return `adk-conformance${key.slice(1)}`;
      // A pattern subpath: import one concrete file it matches.
      const [prefix = '', suffix = ''] = key.slice(2).split('*');
      const sample = readdirSync(join(installed, prefix)).find((f) => f.endsWith(suffix));
      return `adk-conformance/${prefix}${sample ?? ''}`;
    });
    // A subpath whose module needs an optional peer (vitest for the matchers) must fail for that reason only.
    const script = [
      `const optionalPeers = ${JSON.stringify(optionalPeers)};`,
      'const results = {};',
      'async function use(specifier, options) {',
      '  try { results[specifier] = Object.keys(await import(specifier, options)).length; }',
      "  catch (error) { const peer = optionalPeers.find((p) => error.code === 'ERR_MODULE_NOT_FOUND' && error.message.includes(`'${p}'`)); results[specifier] = peer ? `needs ${peer}` : `error: ${error.message}`; }",
      '}',
      ...specifiers.map((s) => `await use(${JSON.stringify(s)}${s.endsWith('.json') ? ", { with: { type: 'json' } }" : ''});`),
      'console.log(JSON.stringify(results));',
    ].join('\n');
    writeFileSync(join(project, 'use-subpaths.mjs'), script);
    // Plain Node ESM: no loader, the compiled dist/ the exports map points at.
    const { code, stdout, stderr } = await sh(process.execPath, ['use-subpaths.mjs'], project, 120_000);
    expect(code, stderr).toBe(0);
    const results = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, number | string>;
    expect(Object.keys(results).sort()).toEqual([...specifiers].sort());
    for (const [specifier, result] of Object.entries(results)) {
      // A `/types` subpath holds only TypeScript types: importing it must work and yields no values.
      if (typeof result === 'number') expect(result > 0 || specifier.endsWith('/types'), `${specifier} exports nothing`).toBe(true);
      else expect(result, `${specifier} failed to import`).toMatch(/^needs /);
    }
  }, 120_000);

  it('ships compiled ESM with declarations, and runs its bin on them', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    for (const [key, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue;
      const t = target as { types: string; default: string };
      expect(Object.keys(t), key).toEqual(['types', 'default']);
      expect(existsSync(join(installed, t.types)), `${key}: ${t.types}`).toBe(true);
      expect(existsSync(join(installed, t.default)), `${key}: ${t.default}`).toBe(true);
    }
    expect(existsSync(join(installed, 'tsconfig.json')), 'the package must not ship tsconfig.json (the bin reads it as "a checkout")').toBe(false);
  });

  it('type-checks imports of every subpath in a strict TypeScript project, under node16 and bundler resolution', async () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const subpaths = Object.keys(manifest.exports).filter((k) => !k.includes('*') && k !== './package.json').map((k) => `adk-conformance${k.slice(1)}`);
    const install = await sh('npm', ['install', '--no-save', 'typescript@5.9.3', '@types/node@20.19.25', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], project);
    expect(install.code, install.stderr).toBe(0);
    const lines = subpaths.map((s, i) => `import * as m${i} from '${s}';\nexport const use${i}: unknown = m${i};`);
    lines.push("import { createMockHandlers } from 'adk-conformance/msw';", "import { validate } from 'adk-conformance/schemas';", "import type { AgentBriefingEvent } from 'adk-conformance/schemas/types';",
      "export const handlers = createMockHandlers({ baseUrl: 'http://adk.test' });", "export const ok: boolean = validate('agent-briefing-event', {}).valid;", "export type Event = AgentBriefingEvent;");
    writeFileSync(join(project, 'consumer.ts'), `${lines.join('\n')}\n`);
    for (const [name, options] of [['node16', { module: 'node16', moduleResolution: 'node16' }], ['bundler', { module: 'esnext', moduleResolution: 'bundler' }]] as const) {
      writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, types: ['node'], lib: ['es2023', 'dom'] }, files: ['consumer.ts'] }));
      const r = await sh(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', `tsconfig.${name}.json`], project);
      expect(r.code, `${name}: ${r.stdout}${r.stderr}`).toBe(0);
    }
  }, 240_000);

  it('serves its msw handlers and matchers in a vitest project', async () => {
    const install = await sh('npm', ['install', '--no-save', 'vitest@4.1.12', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], project);
    expect(install.code, install.stderr).toBe(0);
    writeFileSync(join(project, 'mock.test.mjs'), [
      "import { afterAll, beforeAll, expect, it } from 'vitest';",
      "import { setupServer } from 'msw/node';",
      "import { createMockHandlers } from 'adk-conformance/msw';",
      "import { adkMatchers } from 'adk-conformance/vitest';",
      'expect.extend(adkMatchers);',
      "const server = setupServer(...createMockHandlers({ baseUrl: 'http://adk.test' }));",
      "beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));",
      'afterAll(() => server.close());',
      "it('runs a scenario through msw and checks a briefing with the matcher', async () => {",
      "  const created = await fetch('http://adk.test/apps/plain_text/users/u1/sessions/s1', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });",
      '  expect(created.status).toBe(200);',
      "  const run = await fetch('http://adk.test/run_sse', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'hi' }] } }) });",
      "  expect(await run.text()).toContain('data: ');",
      "  expect({ event_id: 'x' }).not.toBeValidAgentBriefingEvent();",
      '});',
    ].join('\n'));
    const r = await sh(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'mock.test.mjs'], project, 120_000);
    expect(r.code, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/1 passed/);
  }, 240_000);
});
