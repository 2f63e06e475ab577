import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importModule } from './load-module.ts';
import { checkModuleTarget, moduleContracts } from './module-target.ts';

const root = mkdtempSync(join(tmpdir(), 'load-module-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package of the given type with an ES-syntax helper and a module that counts its own evaluations. */
function project(name: string, type: 'commonjs' | 'module' | undefined, file: string, body: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...(type ? { type } : {}) }));
  writeFileSync(join(dir, file), body);
  return join(dir, file);
}

const esmTs = `import { helper } from './helper';
let evaluations = 0;
evaluations += 1;
export const count = () => evaluations;
const state = { id: Math.random() };
export function createTransformer(_options: unknown) { return { push(_line: string) { helper(); }, end() {}, state }; }
`;
const helperTs = 'export function helper(): number { return 1; }\n';

/** Node 24 strips a `.ts` file's types itself (`process.features.typescript`); Node 20 has no such feature. */
const nodeStripsTypes = Boolean((process.features as { typescript?: unknown }).typescript);

describe('importModule: a team module loads whatever its package type (issue 31 §3)', () => {
  it('an ES-syntax .ts in a CommonJS package (npm init -y), where Node alone throws "Cannot require() ES Module ... in a cycle"', async () => {
    const path = project('cjs-ts', 'commonjs', 'transformer.ts', esmTs);
    writeFileSync(join(root, 'cjs-ts', 'helper.ts'), helperTs);
    const loaded = await importModule(path);
    expect(typeof loaded.createTransformer).toBe('function');
    await expect(checkModuleTarget(path, moduleContracts.transformer)).resolves.toBeUndefined();
  });

  it('the same, in a real Node process (vitest resolves imports itself, so Node\'s own failure shows only outside it)', () => {
    const path = project('cjs-node', 'commonjs', 'transformer.ts', esmTs);
    writeFileSync(join(root, 'cjs-node', 'helper.ts'), helperTs);
    const script = `const { importModule } = await import(${JSON.stringify(new URL('./load-module.ts', import.meta.url).href)});
let plain = 'loaded';
try { await import(${JSON.stringify(`file://${path}`)}); } catch (e) { plain = e.code; }
const m = await importModule(${JSON.stringify(path)});
const a = (await importModule(${JSON.stringify(path)}, 1)).createTransformer({}).state;
const b = (await importModule(${JSON.stringify(path)}, 2)).createTransformer({}).state;
console.log(JSON.stringify({ plain, create: typeof m.createTransformer, fresh: a !== b }));`;
    // tsx/esm is what bin/adk-conformance.js registers; full tsx (`tsx cli/main.ts`, npm start) adds its CommonJS hooks.
    // A Node that strips types itself (24: process.features.typescript) imports the file as it is.
    for (const [loader, plain] of [['tsx/esm', nodeStripsTypes ? 'loaded' : 'ERR_REQUIRE_CYCLE_MODULE'], ['tsx', 'loaded']] as const) {
      const r = spawnSync(process.execPath, ['--import', loader, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
      expect(r.stderr, loader).toBe('');
      expect(JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}'), loader).toEqual({ plain, create: 'function', fresh: true });
    }
  });

  it('fresh instances of a CommonJS-loaded module have their own top-level state; without an instance the same copy', async () => {
    const path = project('cjs-fresh', undefined, 'transformer.ts', esmTs);
    writeFileSync(join(root, 'cjs-fresh', 'helper.ts'), helperTs);
    const make = async (instance?: number) => ((await importModule(path, instance)).createTransformer as (o: unknown) => { state: { id: number } })({}).state;
    const shared1 = await make();
    const shared2 = await make();
    expect(shared2).toBe(shared1);
    const a = await make(1);
    const b = await make(2);
    expect(a).not.toBe(b);
    expect(a).not.toBe(shared1);
  });

  it('.mts, .cjs and an ES-syntax .js in a "type": "module" package load as Node loads them', async () => {
    const mts = project('mts', 'commonjs', 'transformer.mts', 'export function createTransformer() { return { push() {}, end() {} }; }\n');
    const cjs = project('cjs', 'commonjs', 'transformer.cjs', 'exports.createTransformer = function () { return { push() {}, end() {} }; };\n');
    const js = project('esm-js', 'module', 'transformer.js', 'export function createTransformer() { return { push() {}, end() {} }; }\n');
    for (const path of [mts, cjs, js]) {
      expect(typeof (await importModule(path)).createTransformer, path).toBe('function');
      await expect(checkModuleTarget(path, moduleContracts.transformer)).resolves.toBeUndefined();
    }
  });

  it('a TypeScript file whose first annotation stops Node\'s CommonJS parser (`const x: T = ...`, a SyntaxError, not the cycle error) loads too, in a real Node process', () => {
    const path = project('cjs-annotated', undefined, 'team.config.ts', "const config: { level: string } = { level: 'must' };\nexport default config;\n");
    const script = `const { importModule } = await import(${JSON.stringify(new URL('./load-module.ts', import.meta.url).href)});
let plain = 'loaded';
try { await import(${JSON.stringify(`file://${path}`)}); } catch (e) { plain = e.name; }
const m = await importModule(${JSON.stringify(path)});
console.log(JSON.stringify({ plain, config: m.default }));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({ plain: nodeStripsTypes ? 'loaded' : 'SyntaxError', config: { level: 'must' } });
  });

  it('a module that is broken either way keeps the error that names its real fault', async () => {
    const path = project('broken', 'commonjs', 'transformer.ts', 'import { nothing } from "./missing-file";\nexport const createTransformer = () => nothing;\n');
    await expect(checkModuleTarget(path, moduleContracts.transformer)).rejects.toThrow(/cannot be loaded/);
  });
});
