/**
 * A part given as a module (--transformer-module, --normalizer-module, ...) is imported once before
 * the mock starts, so a file Node cannot load or one that does not export the part's factory stops
 * the run at once with what to fix (exit 2), the same for every part: never a stack trace, and
 * never a verdict over requirements nothing could exercise. The runners import the same module
 * again in `start()` (Node's module cache gives the same instance) and keep their own checks for
 * callers of the engine API.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { UsageError } from '../../core/errors.ts';
import type { TargetSpec } from './spec.ts';
import { exportOf, importModule } from './load-module.ts';

export type ModuleContract = {
  flag: string;
  exportName: string;
  /** The factory's shape, said in the message of a module that lacks it. */
  shape: string;
  doc: string;
  /** Whether the runner also takes `default.<exportName>` (a CommonJS or default-exported object). */
  acceptsDefault: boolean;
  /** Other exports the runner adapts instead (the transformer's per-event function). */
  alternatives?: readonly string[];
};

export const moduleContracts = {
  transformer: { flag: 'transformer-module', exportName: 'createTransformer', shape: 'createTransformer({onEvent, idleMs, sessionId?, enhanced?}) => {push(line), end(), dispose?()}, or transformEvent(event, context) => briefing | briefing[] | null (+ optional endOfStream(context))', doc: 'docs/harness.md "Module contract"', acceptsDefault: true, alternatives: ['transformEvent'] },
  normalizer: { flag: 'normalizer-module', exportName: 'createBlockNormalizer', shape: 'createBlockNormalizer({onEvent}) returning {feed, end}', doc: 'docs/harness-normalizer.md', acceptsDefault: true },
  client: { flag: 'client-module', exportName: 'createClient', shape: 'createClient({baseUrl, idleMs, graceMs, callIdleMs}) => {run(request, onRecord, signal)}', doc: 'docs/client-contract.md "Module contract"', acceptsDefault: true },
  auditBridge: { flag: 'audit-bridge-module', exportName: 'createAuditBridge', shape: 'createAuditBridge(options) returning {record, getAuditTrail, clearInvocation, observeEvent, stats} or seed 000 §2.2A\'s {record_tool_invocation, record_tool_response, get_audit_trail, clear_invocation}', doc: 'docs/audit-bridge-contract.md', acceptsDefault: false },
  adkServer: { flag: 'adk-server-module', exportName: 'createAdkServer', shape: 'createAdkServer({runner}) returning a Node request listener (req, res) or an object with fetch(request) => Response', doc: 'docs/adk-server-contract.md', acceptsDefault: true },
  proofStream: { flag: 'proof-stream-module', exportName: 'createProofLayerStream', shape: 'createProofLayerStream({now, setTimeout, clearTimeout}) => {push, getState, dispose?}', doc: 'docs/proof-stream-contract.md', acceptsDefault: true },
} as const satisfies Record<string, ModuleContract>;

/**
 * Where a syntax error is. TypeScript's (esbuild, through tsx) says `file:line:col` in its message;
 * Node's ESM loader says no line for JavaScript, but `node --check` does, so it is asked, only on
 * this failure path.
 */
function syntaxErrorAt(path: string, error: Error): string {
  // esbuild's line names the file it transformed (a .mts as .ts): keep its line, column and message, with the path given.
  const esbuild = /^(.+?):(\d+):(\d+): ERROR: (.*)$/m.exec(error.message);
  if (esbuild) return `${path}:${esbuild[2]}:${esbuild[3]}: ${esbuild[4]}`;
  if (!['.js', '.mjs', '.cjs'].includes(extname(path).toLowerCase())) return `${path}: ${error.message}`;
  const check = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8', timeout: 10_000 });
  const line = /^(.*):(\d+)$/m.exec(check.stderr ?? '')?.[2];
  return `${path}${line ? `:${line}` : ''}: ${error.name}: ${error.message}`;
}

/** Why the import failed, in one line naming the file (and the line, when known). */
export function describeImportError(path: string, error: unknown): string {
  if (!(error instanceof Error)) return `it threw ${String(error)} while loading`;
  const code = (error as NodeJS.ErrnoException).code;
  if (error.name === 'SyntaxError' || error.name === 'TransformError' || error.message.startsWith('Transform failed')) return `syntax error at ${syntaxErrorAt(path, error)}`;
  if (code === 'ERR_MODULE_NOT_FOUND') return `it imports something that is not installed: ${error.message}`;
  const esm = esmAsCommonJs(path, error);
  if (esm) return esm;
  // Anything else was thrown by the module's own top-level code.
  const at = /\((?:file:\/\/)?([^()]+:\d+:\d+)\)|at (?:file:\/\/)?(\/[^\s]+:\d+:\d+)/.exec(error.stack ?? '');
  return `its top-level code threw ${error.name}: ${error.message}${at ? ` (at ${at[1] ?? at[2]})` : ''}`;
}

/**
 * A `.ts` or `.js` file outside an ESM package is loaded as CommonJS (Node decides by the nearest
 * package.json's "type"), and an ES module's `import` then fails with Node's "Cannot require() ES
 * Module ... in a cycle", which names no fix (issue 28 §4). Said here with the fix.
 */
function esmAsCommonJs(path: string, error: Error): string | undefined {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_REQUIRE_CYCLE_MODULE' && !/Cannot require\(\) ES Module .* in a cycle/.test(error.message)) return undefined;
  const ext = extname(path).toLowerCase();
  if (ext !== '.ts' && ext !== '.js') return undefined;
  const pkg = nearestPackageJson(dirname(resolve(path)));
  const where = pkg ? `${pkg.file} says ${pkg.type === undefined ? 'no "type"' : `"type": ${JSON.stringify(pkg.type)}`}` : 'no package.json above it says "type": "module"';
  return `Node loaded it as CommonJS (${where}), so its ES module syntax could not be loaded (Node: "${error.message.replace(/(in a cycle)[\s\S]*/, '$1')}"). Add "type": "module" to ${pkg ? pkg.file : `a package.json in ${dirname(resolve(path))} ({"type": "module"})`}, or rename it ${ext === '.ts' ? '.mts' : '.mjs'} (docs/harness.md "Module contract")`;
}

function nearestPackageJson(dir: string): { file: string; type?: unknown } | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    if (existsSync(file)) {
      try { return { file, type: (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type }; } catch { return { file }; }
    }
    if (dirname(at) === at) return undefined;
  }
}

/** Import one module target and check it exports the part's factory; a UsageError otherwise. */
export async function checkModuleTarget(path: string, contract: ModuleContract): Promise<void> {
  let loaded: Record<string, unknown>;
  try {
    loaded = await importModule(path);
  } catch (error) {
    throw new UsageError(`--${contract.flag} ${path} cannot be loaded: ${describeImportError(path, error)}. Fix it so that Node can import it; the module must export ${contract.shape} (${contract.doc}).`);
  }
  const lookUp = (name: string): unknown => (contract.acceptsDefault ? exportOf(loaded, name) : loaded[name]);
  const names: readonly string[] = [contract.exportName, ...((contract as ModuleContract).alternatives ?? [])];
  if (!names.some((name) => typeof lookUp(name) === 'function')) {
    const exported = Object.keys(loaded).filter((k) => k !== 'module.exports');
    throw new UsageError(`--${contract.flag} ${path} exports no ${names.join(' or ')} function (it exports: ${exported.join(', ') || 'nothing'}); export ${contract.shape} (${contract.doc}).`);
  }
}

/** Every module the target names, checked before anything starts. */
export async function checkModuleTargets(spec: TargetSpec): Promise<void> {
  const given: Array<[{ module: string } | { command: string } | { url: string } | undefined, ModuleContract]> = [
    [spec.transformer, moduleContracts.transformer],
    [spec.normalizer, moduleContracts.normalizer],
    [spec.client, moduleContracts.client],
    [spec.auditBridge, moduleContracts.auditBridge],
    [spec.proofStream, moduleContracts.proofStream],
    [spec.adkServer, moduleContracts.adkServer],
  ];
  for (const [target, contract] of given) {
    if (target && 'module' in target) await checkModuleTarget(target.module, contract);
  }
}
