/**
 * `adk-conformance.config.json` (or `.ts`, whose default export is the same object): the settings
 * of `adk-conformance run` kept in a file, found in the working folder or named by `--config`.
 * The file is checked against schemas/config.schema.json; an unknown key is an error naming the
 * key and the nearest valid one, so a typo never silently changes a run. Flags override the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { nearest, UsageError } from '../core/errors.ts';
import { parseJson } from '../scenarios/loader.ts';
import { schemaDocument, validate, type SchemaIssue } from '../schemas/registry.ts';
import type { Config } from '../schemas/types.ts';
import { requirements } from './requirements/index.ts';
import { checkProfile } from './profile.ts';
import { importModule } from './targets/load-module.ts';

export type { Config };

export const configFileNames = ['adk-conformance.config.json', 'adk-conformance.config.ts'] as const;

/** Identity, for `.ts` config files: `export default defineConfig({...})` gets the types. */
export function defineConfig(config: Config): Config {
  return config;
}

export type LoadedConfig = {
  config: Config;
  /** Absolute path of the file. */
  file: string;
  /** Relative paths in the file are read from here. */
  dir: string;
};

/**
 * The config named by `path`, else the one in `cwd`, else undefined. Throws a UsageError when the
 * named file is missing, when both file names are present, or when the content is invalid.
 */
export async function loadConfig(options: { path?: string; cwd?: string } = {}): Promise<LoadedConfig | undefined> {
  const cwd = options.cwd ?? process.cwd();
  let file: string;
  if (options.path !== undefined) {
    file = resolve(cwd, options.path);
    if (!existsSync(file)) throw new UsageError(`--config ${options.path}: no such file (resolved to ${file}).`);
  } else {
    const found = configFileNames.map((name) => join(cwd, name)).filter((f) => existsSync(f));
    if (found.length === 0) return undefined;
    if (found.length > 1) throw new UsageError(`both ${configFileNames.join(' and ')} are in ${cwd}; keep one, or pick one with --config.`);
    file = found[0]!;
  }
  const value = file.endsWith('.json') ? readJsonConfig(file) : await importConfig(file);
  return { config: checkConfig(value, file), file, dir: dirname(file) };
}

function readJsonConfig(file: string): unknown {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (error) { throw new UsageError(`cannot read ${file}: ${(error as Error).message}`); }
  const parsed = parseJson(text);
  if ('error' in parsed) throw new UsageError(`${file} is not valid JSON: ${parsed.error}`);
  return parsed.value;
}

async function importConfig(file: string): Promise<unknown> {
  if (!/\.(ts|mts|js|mjs)$/.test(file)) throw new UsageError(`${file}: a config file is .json, or .ts/.js with a default export.`);
  let module: { default?: unknown };
  // The loader every part's module goes through: TypeScript on demand, a CommonJS package's ES syntax too.
  try { module = (await importModule(file)) as { default?: unknown }; } catch (error) { throw new UsageError(`cannot load ${file}: ${(error as Error).message}`); }
  if (module.default === undefined) throw new UsageError(`${file} has no default export; write \`export default defineConfig({...})\`.`);
  return module.default;
}

/** Validate a config value; `file` names it in errors. */
export function checkConfig(value: unknown, file: string): Config {
  const result = validate('config', value);
  if (!result.valid) throw new UsageError(`${file}: ${describeIssues(result.errors, value)}\nSee docs/configuration.md (schema: schemas/config.schema.json).`);
  const config = value as Config;
  if (config.profile !== undefined) checkProfile(config.profile, [...requirements.values()], `${file}: /profile`);
  const target = config.target ?? {};
  for (const [a, b] of [['gateway', 'gatewayCmd'], ['transformerCmd', 'transformerModule'], ['normalizerCmd', 'normalizerModule'], ['clientCmd', 'clientModule'], ['auditBridgeCmd', 'auditBridgeModule']] as const) {
    if (target[a] !== undefined && target[b] !== undefined) throw new UsageError(`${file}: /target has both ${a} and ${b}, which name the same part; keep one.`);
  }
  return config;
}

/** The first problem, in words: unknown keys first (with the nearest valid one), then the rest. */
function describeIssues(issues: readonly SchemaIssue[], value: unknown): string {
  const unknown = issues.find((i) => i.keyword === 'additionalProperties');
  if (unknown) {
    const key = String(unknown.params['additionalProperty']);
    const allowed = allowedKeys(unknown.path);
    const near = nearest(key, allowed);
    return `unknown key '${key}' at ${unknown.path || '/'}${near ? ` (did you mean '${near}'?)` : ''}; valid keys there: ${allowed.join(', ')}.`;
  }
  const shown = issues.slice(0, 3).map((i) => {
    // The registry's enum messages name the allowed values already.
    return `${i.path || '/'} ${i.message}${i.path ? `, got ${JSON.stringify(at(value, i.path))}` : ''}`;
  });
  return shown.join('; ');
}

type SchemaNode = { properties?: Record<string, SchemaNode>; $ref?: string; definitions?: Record<string, SchemaNode> };

/** The property names the schema allows at an instance pointer (objects only). */
function allowedKeys(pointer: string): string[] {
  const root = schemaDocument('config') as SchemaNode;
  let node: SchemaNode | undefined = root;
  for (const token of pointer.split('/').slice(1)) {
    node = deref(root, node?.properties?.[token]);
  }
  return Object.keys(deref(root, node)?.properties ?? {});
}

function deref(root: SchemaNode, node: SchemaNode | undefined): SchemaNode | undefined {
  const ref = node?.$ref;
  if (!ref?.startsWith('#/definitions/')) return node;
  return root.definitions?.[ref.slice('#/definitions/'.length)];
}

function at(value: unknown, pointer: string): unknown {
  let current = value;
  for (const token of pointer.split('/').slice(1)) current = (current as Record<string, unknown> | undefined)?.[token];
  return current;
}

/** The run command's flag names for the config's keys (paths resolved from the config's folder). */
export function configAsFlags(loaded: LoadedConfig): Record<string, string | string[] | undefined> {
  const { config, dir } = loaded;
  const path = (p: string | undefined) => (p === undefined ? undefined : resolve(dir, p));
  const t = config.target ?? {};
  return {
    gateway: t.gateway, 'gateway-cmd': t.gatewayCmd, 'transformer-cmd': t.transformerCmd, 'transformer-module': path(t.transformerModule),
    'normalizer-cmd': t.normalizerCmd, 'normalizer-module': path(t.normalizerModule),
    'client-cmd': t.clientCmd, 'client-module': path(t.clientModule),
    'audit-bridge-cmd': t.auditBridgeCmd, 'audit-bridge-module': path(t.auditBridgeModule), 'proof-stream-module': path(t.proofStreamModule), 'adk-server-module': path(t.adkServerModule),
    proxy: t.proxy, 'proxy-cmd': t.proxyCmd, 'backend-port': t.backendPort === undefined ? undefined : String(t.backendPort),
    'mock-port': t.mockPort === undefined ? undefined : String(t.mockPort), 'jwt-secret': t.jwtSecret,
    'startup-timeout': config.startupTimeoutMs === undefined ? undefined : String(config.startupTimeoutMs / 1000),
    protocol: config.protocol, spec: config.spec,
    'app-name': config.gateway?.appName, 'gateway-serves': gatewayServes(config.gateway),
    'auth-cookie': config.proxyNames?.authCookie, 'csrf-cookie': config.proxyNames?.csrfCookie, 'csrf-header': config.proxyNames?.csrfHeader,
    level: config.level, baseline: path(config.baseline), seed: config.seed === undefined ? undefined : String(config.seed), out: path(config.out),
    reporter: config.reporters?.join(','), 'timeout-ms': config.timeoutMs === undefined ? undefined : String(config.timeoutMs),
    generated: config.generated === undefined ? undefined : String(config.generated),
    upstream: config.upstream,
    scenarios: path(config.scenarios?.dir), grep: config.scenarios?.grep, skip: config.scenarios?.skip,
  };
}

/** The config's `gateway` faces as --gateway-serves words (undefined: none declared, the default). */
function gatewayServes(g: Config['gateway']): string | undefined {
  const words = [g?.cookieProxy === true ? 'cookie-proxy' : '', g?.enhancedEndpoint === true ? 'run-sse-enhanced' : '', g?.legacyRoutes === false ? 'legacy-elsewhere' : ''].filter(Boolean);
  return words.length > 0 ? words.join(',') : undefined;
}

/** The flags that select a part: given on the command line, they replace the config's target. */
export const partFlags = ['gateway', 'gateway-cmd', 'transformer-cmd', 'transformer-module', 'normalizer-cmd', 'normalizer-module', 'client-cmd', 'client-module', 'audit-bridge-cmd', 'audit-bridge-module', 'proof-stream-module', 'adk-server-module', 'proxy', 'proxy-cmd'] as const;

/** Command-line values over the config's: a part flag replaces the whole target; every other flag its own key. */
export function mergeFlags(cli: Record<string, unknown>, fromConfig: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...cli };
  const cliHasTarget = partFlags.some((f) => cli[f] !== undefined);
  for (const [key, value] of Object.entries(fromConfig)) {
    if (value === undefined || merged[key] !== undefined) continue;
    if (cliHasTarget && (partFlags as readonly string[]).includes(key)) continue;
    // The file's gateway shape describes the file's gateway: a command line naming another part drops it too.
    if (cliHasTarget && cli.gateway === undefined && cli['gateway-cmd'] === undefined && (key === 'app-name' || key === 'gateway-serves')) continue;
    if (cliHasTarget && cli.proxy === undefined && cli['proxy-cmd'] === undefined && (key === 'auth-cookie' || key === 'csrf-cookie' || key === 'csrf-header')) continue;
    merged[key] = value;
  }
  return merged;
}
