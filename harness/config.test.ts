import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../cli/args.ts';
import { parseRunOptions } from '../cli/commands/run.ts';
import { configAsFlags, loadConfig, mergeFlags, type LoadedConfig } from './config.ts';

const root = mkdtempSync(join(tmpdir(), 'config-'));
afterAll(() => { rmSync(root, { recursive: true, force: true }); });

let n = 0;
function folder(files: Record<string, string>): string {
  const dir = join(root, String(n++));
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const message = async (work: Promise<unknown>) => {
  const error = await work.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
};

describe('loadConfig', () => {
  it('finds adk-conformance.config.json in the working folder', async () => {
    const dir = folder({ 'adk-conformance.config.json': '{"level":"should","seed":7}' });
    expect(await loadConfig({ cwd: dir })).toMatchObject({ config: { level: 'should', seed: 7 }, file: join(dir, 'adk-conformance.config.json'), dir });
  });

  it('finds nothing, and says nothing, where there is no file', async () => {
    expect(await loadConfig({ cwd: folder({}) })).toBeUndefined();
  });

  it('reads the file --config names, relative to the working folder', async () => {
    const dir = folder({ 'ci.json': '{"out":"reports/ci"}' });
    expect((await loadConfig({ cwd: dir, path: 'ci.json' }))?.config).toEqual({ out: 'reports/ci' });
  });

  it('loads a .ts file through its default export', async () => {
    const dir = folder({ 'adk-conformance.config.ts': `import { defineConfig } from ${JSON.stringify(join(import.meta.dirname, 'config.ts'))};\nexport default defineConfig({ level: 'may', timeoutMs: 500 });\n` });
    expect((await loadConfig({ cwd: dir }))?.config).toEqual({ level: 'may', timeoutMs: 500 });
  });

  it.each([
    ['{"lvel":"must"}', /unknown key 'lvel' at \/ \(did you mean 'level'\?\); valid keys there: \$schema, target, baseline, level, reporters, out, seed, timeoutMs, startupTimeoutMs, protocol, spec, gateway, generated, upstream, scenarios, profile/],
    ['{"target":{"transformerCommand":"x"}}', /unknown key 'transformerCommand' at \/target \(did you mean 'transformerCmd'\?\)/],
    ['{"profile":{"parts":["gateway"],"capabilities":{"audit-metadta":false}}}', /unknown key 'audit-metadta' at \/profile\/capabilities \(did you mean 'audit-metadata'\?\)/],
    ['{"scenarios":{"grp":["errors"]}}', /unknown key 'grp' at \/scenarios \(did you mean 'grep'\?\)/],
    ['{"level":"strict"}', /\/level must be equal to one of the allowed values \("must", "should", "may"\), got "strict"/],
    ['{"level":', /is not valid JSON: line 1, column 10/],
    ['{"target":{"gateway":"http://127.0.0.1:1","gatewayCmd":"node g.js"}}', /has both gateway and gatewayCmd/],
    ['{"profile":{"parts":["gateway"],"capabilities":{"csrf":false}}}', /\/profile\/reasons\/csrf is missing/],
  ])('refuses %s, saying how to fix it', async (text, expected) => {
    const dir = folder({ 'adk-conformance.config.json': text });
    expect(await message(loadConfig({ cwd: dir }))).toMatch(expected);
  });

  it('refuses a --config that does not exist', async () => {
    expect(await message(loadConfig({ cwd: folder({}), path: 'nope.json' }))).toMatch(/--config nope\.json: no such file/);
  });

  it('refuses two config files side by side', async () => {
    const dir = folder({ 'adk-conformance.config.json': '{}', 'adk-conformance.config.ts': 'export default {};' });
    expect(await message(loadConfig({ cwd: dir }))).toMatch(/keep one, or pick one with --config/);
  });
});

describe('flags over the file', () => {
  const loaded: LoadedConfig = {
    file: '/proj/adk-conformance.config.json', dir: '/proj',
    config: { target: { transformerModule: 'src/t.ts', mockPort: 9000 }, level: 'should', reporters: ['json', 'md'], out: 'out', seed: 5, timeoutMs: 999, scenarios: { dir: 'sc', grep: ['errors'], skip: ['probe:client-memory'] } },
  };

  it('fills every option the command line leaves out, paths read from the file\'s folder', () => {
    const values = mergeFlags({}, configAsFlags(loaded));
    expect(values).toMatchObject({ 'transformer-module': '/proj/src/t.ts', 'mock-port': '9000', level: 'should', reporter: 'json,md', out: '/proj/out', seed: '5', 'timeout-ms': '999', scenarios: '/proj/sc', grep: ['errors'], skip: ['probe:client-memory'] });
  });

  it('reads the baseline key from the file\'s folder, and --baseline overrides it', () => {
    const withBaseline = { ...loaded, config: { ...loaded.config, baseline: 'ci/conformance-baseline.json' } };
    expect(mergeFlags({}, configAsFlags(withBaseline)).baseline).toBe('/proj/ci/conformance-baseline.json');
    expect(mergeFlags({ baseline: 'other.json' }, configAsFlags(withBaseline)).baseline).toBe('other.json');
  });

  it('lets a flag override its key', () => {
    expect(mergeFlags({ level: 'must', seed: '1' }, configAsFlags(loaded))).toMatchObject({ level: 'must', seed: '1', out: '/proj/out' });
  });

  it('lets a target flag replace the whole target but keep the mock port', () => {
    const values = mergeFlags({ 'transformer-cmd': 'python3 t.py' }, configAsFlags(loaded));
    expect(values['transformer-module']).toBeUndefined();
    expect(values['mock-port']).toBe('9000');
  });

  it('gives the run command the options the file holds', () => {
    const values = mergeFlags({ 'normalizer-cmd': 'node n.js' }, configAsFlags(loaded));
    const options = parseRunOptions(values, { 'normalizer-cmd': 'node n.js', 'mock-port': values['mock-port'] as string });
    expect(options).toMatchObject({ level: 'should', seed: 5, reporters: ['json', 'md'], outDir: '/proj/out', scenariosDir: '/proj/sc', scenarioTimeoutMs: 999, grep: ['errors'], skip: ['probe:client-memory'], target: { normalizer: { command: 'node n.js' }, mockPort: 9000 } });
  });
});

describe('the spec setting (issue 31 §2)', () => {
  it('becomes --spec, which reaches the transformer target, and a flag overrides it', async () => {
    const { parseTargetSpec } = await import('./targets/spec.ts');
    const loaded: LoadedConfig = { file: '/proj/c.json', dir: '/proj', config: { spec: '1.1' } };
    expect(mergeFlags({}, configAsFlags(loaded)).spec).toBe('1.1');
    expect(mergeFlags({ spec: '1.0' }, configAsFlags(loaded)).spec).toBe('1.0');
    expect(parseTargetSpec({ 'transformer-cmd': 'python3 t.py', spec: '1.1' }).spec).toBe('1.1');
    expect(() => parseTargetSpec({ 'transformer-cmd': 'python3 t.py', spec: '1.2' })).toThrow(/--spec 1\.2 is not a spec version; give 1\.0 or 1\.1 \(did you mean '1\.(0|1)'\?\)/);
    expect(() => parseTargetSpec({ 'normalizer-cmd': 'node n.js', spec: '1.1' })).toThrow(/--spec says which AgentBriefingEvent version a transformer is judged against; it goes with --transformer-cmd or --transformer-module/);
  });
});

describe('the generated-runs setting', () => {
  it('becomes the --generated flag, and a flag overrides it', async () => {
    const { configAsFlags } = await import('./config.ts');
    const flags = configAsFlags({ config: { generated: 5 }, dir: '/tmp', file: '/tmp/adk-conformance.config.json' } as never);
    expect(flags.generated).toBe('5');
  });

  it('becomes the --upstream flag', async () => {
    const { configAsFlags } = await import('./config.ts');
    const flags = configAsFlags({ config: { upstream: 'real-adk-js' }, dir: '/tmp', file: '/tmp/adk-conformance.config.json' } as never);
    expect(flags.upstream).toBe('real-adk-js');
  });
});

describe('the start-up bound and the gateway\'s shape', () => {
  const loaded = (config: object) => ({ config, dir: '/tmp', file: '/tmp/adk-conformance.config.json' }) as LoadedConfig;

  it('become --startup-timeout (seconds), --app-name and --gateway-serves, and reach the target', () => {
    const flags = configAsFlags(loaded({ startupTimeoutMs: 45_000, gateway: { appName: 'vana', cookieProxy: true, enhancedEndpoint: false } }));
    expect(flags).toMatchObject({ 'startup-timeout': '45', 'app-name': 'vana', 'gateway-serves': 'cookie-proxy' });
    const options = parseRunOptions(mergeFlags({ 'gateway-cmd': 'python3 gw.py' }, flags), { 'gateway-cmd': 'python3 gw.py', 'startup-timeout': '45', 'app-name': 'vana', 'gateway-serves': 'cookie-proxy' });
    expect(options.target).toMatchObject({ startupTimeoutMs: 45_000, gatewayShape: { appName: 'vana', cookieProxy: true } });
    // Declared nothing: the defaults (each scenario's id as the app; neither the proxy nor the enhanced endpoint).
    expect(configAsFlags(loaded({ gateway: { cookieProxy: false } }))['gateway-serves']).toBeUndefined();
  });

  it('leaves the file\'s gateway shape out when the command line names another part', () => {
    const values = mergeFlags({ 'transformer-cmd': 'python3 t.py' }, configAsFlags(loaded({ gateway: { appName: 'vana' } })));
    expect(values['app-name']).toBeUndefined();
  });

  it('refuses a start-up bound that is not seconds from 0.1 to 3600, and a gateway shape without a gateway', () => {
    expect(() => parseRunOptions({}, { 'startup-timeout': 'soon' })).toThrow(/--startup-timeout takes seconds from 0\.1 to 3600/);
    expect(() => parseRunOptions({}, { 'transformer-cmd': 'python3 t.py', 'app-name': 'vana' })).toThrow(/--app-name describes the gateway under test; it goes with --gateway URL or --gateway-cmd/);
  });
});

describe('docs/configuration.md', () => {
  it('names every target key and every profile part of schemas/config.schema.json', () => {
    const kit = join(import.meta.dirname, '..');
    const doc = readFileSync(join(kit, 'docs', 'configuration.md'), 'utf8');
    const schema = JSON.parse(readFileSync(join(kit, 'schemas', 'config.schema.json'), 'utf8')) as { properties: { target: { properties: Record<string, unknown> } }; definitions: { part: { enum: string[] } } };
    const keysRow = doc.split('\n').filter((l) => l.startsWith('| `target.')).join('\n');
    for (const key of Object.keys(schema.properties.target.properties)) expect(keysRow, `docs/configuration.md's Keys table lacks target key ${key}`).toContain(`\`${key === 'gateway' || key === 'mockPort' || key === 'jwtSecret' || key === 'backendPort' ? `target.${key}` : key}\``);
    const partsItem = doc.slice(doc.indexOf('- **`parts`**'), doc.indexOf('- **`capabilities`**'));
    for (const part of schema.definitions.part.enum) expect(partsItem, `docs/configuration.md's parts list lacks ${part}`).toContain(`\`${part}\``);
  });
});
