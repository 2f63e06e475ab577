/**
 * Reads the scenario corpus: every `<id>.json` in a folder, parsed and validated against
 * schemas/scenario.schema.json through the one schema registry. A broken file becomes an error
 * value naming the file and the JSON pointer; it never hides the good files next to it.
 */
import { packageRoot } from '../core/package-root.ts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { validate, type SchemaIssue } from '../schemas/registry.ts';
import type { Scenario } from '../schemas/types.ts';
import { resolveDialect } from '../mock-adk/core/dialects/names.ts';

export type { Scenario };

/** This folder: the corpus shipped with the kit. */
export const defaultScenariosDir = join(packageRoot, 'scenarios');

export type ScenarioLoadError = {
  file: string;
  /** JSON pointer into the file's value ('' for the whole file). */
  path: string;
  message: string;
  /** read: the file could not be read; json: syntax error; schema: the value breaks the scenario schema. */
  kind: 'read' | 'json' | 'schema';
};

export type LoadedScenarios = {
  scenarios: Scenario[];
  /** `files[i]` is the absolute path `scenarios[i]` came from. */
  files: string[];
  errors: ScenarioLoadError[];
};

/** Load every `*.json` file of `dir` (sorted by name). Problems become `errors`, never exceptions. */
export function loadScenarios(dir: string = defaultScenariosDir): LoadedScenarios {
  const root = resolve(dir);
  let names: string[];
  try {
    if (!statSync(root).isDirectory()) throw new Error(`${root} is not a directory`);
    names = readdirSync(root).filter((name) => name.endsWith('.json')).sort();
  } catch (error) {
    // A missing corpus folder is a configuration error: say which folder and how to fix it.
    throw new Error(`cannot read the scenario folder ${root}: ${(error as Error).message}. Pass an existing folder of <id>.json scenario files.`);
  }
  const result: LoadedScenarios = { scenarios: [], files: [], errors: [] };
  for (const name of names) {
    const file = join(root, name);
    const outcome = parseScenarioFile(file);
    if ('scenario' in outcome) {
      result.scenarios.push(outcome.scenario);
      result.files.push(file);
    } else {
      result.errors.push(...outcome.errors);
    }
  }
  return result;
}

/** Load one scenario file; throws an Error naming the file and the line/column or JSON pointer. */
export function loadScenarioFile(path: string): Scenario {
  const outcome = parseScenarioFile(resolve(path));
  if ('scenario' in outcome) return outcome.scenario;
  const shown = outcome.errors.slice(0, 5).map((e) => `  ${e.path || '/'}: ${e.message}`);
  const more = outcome.errors.length > 5 ? [`  ... and ${outcome.errors.length - 5} more`] : [];
  const first = outcome.errors[0];
  const what = first?.kind === 'json' ? 'is not valid JSON' : first?.kind === 'read' ? 'cannot be read' : 'is not a valid scenario (schemas/scenario.schema.json)';
  throw new Error([`${path} ${what}:`, ...shown, ...more].join('\n'));
}

/** Parse and validate one file without throwing. */
export function parseScenarioFile(file: string): { scenario: Scenario } | { errors: ScenarioLoadError[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { errors: [{ file, path: '', kind: 'read', message: (error as Error).message }] };
  }
  const parsed = parseJson(text);
  if ('error' in parsed) return { errors: [{ file, path: '', kind: 'json', message: parsed.error }] };
  const issues = scenarioSchemaIssues(parsed.value);
  if (issues.length > 0) return { errors: issues.map((issue) => ({ file, path: issue.path, kind: 'schema', message: issue.message })) };
  return { scenario: withResolvedDialects(parsed.value as Scenario) };
}

/**
 * A scenario may name its dialects by versioned name or alias (`adk-js@2.0` or `adk-js`); the
 * kit works with the internal keys (mock-adk/core/dialects/names.ts), so they are resolved here.
 */
function withResolvedDialects(scenario: Scenario): Scenario {
  const key = (d: string): Scenario['dialect'] => (resolveDialect(d) ?? d) as Scenario['dialect'];
  return { ...scenario, dialect: key(scenario.dialect) };
}

/** JSON.parse with the position turned into `line L, column C` (1-based), which editors understand. */
export function parseJson(text: string): { value: unknown } | { error: string } {
  // A leading BOM is legal in a UTF-8 file but not in JSON.parse input.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { value: JSON.parse(body) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : /end of JSON input/.test(message) ? body.length : undefined;
    if (offset === undefined) return { error: message };
    const before = body.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    return { error: `line ${line}, column ${column}: ${message.replace(/ in JSON at position \d+.*$/, '')}` };
  }
}

/**
 * The scenario schema's issues for a value, made readable. ajv reports every failing branch of a
 * `oneOf`; a reader wants only the branch they meant (the `kind` they wrote, the step type they
 * wrote), so issues from the other branches are dropped.
 */
export function scenarioSchemaIssues(value: unknown): SchemaIssue[] {
  const result = validate('scenario', value);
  if (result.valid) return [];
  return refineIssues(result.errors, value);
}

const kindBranches = collectKindBranches();

/** Schema issues made readable: see scenarioSchemaIssues. Works for any schema of the registry. */
export function refineIssues(raw: readonly SchemaIssue[], value: unknown): SchemaIssue[] {
  // Point at the missing or extra property itself: "/upstream/steps" says more than "/upstream".
  let issues = raw.map((issue) => {
    const params = (issue.params ?? {}) as Record<string, unknown>;
    const child = issue.keyword === 'required' ? params['missingProperty'] : issue.keyword === 'additionalProperties' ? params['additionalProperty'] : undefined;
    return typeof child === 'string' ? { ...issue, path: `${issue.path}/${escapePointer(child)}` } : issue;
  });

  // Discriminated unions (upstream.kind): keep only the branch whose `kind` the value names.
  const discriminated = new Set<string>();
  for (const issue of issues) {
    if (issue.keyword !== 'const' || !issue.path.endsWith('/kind')) continue;
    const base = issue.path.slice(0, -'/kind'.length);
    const kind = (at(value, base) as { kind?: unknown } | undefined)?.kind;
    const branch = typeof kind === 'string' ? kindBranches.get(kind) : undefined;
    if (branch) discriminated.add(`${base}\u0000${kind as string}`);
  }
  for (const key of discriminated) {
    const [base = '', kind = ''] = key.split('\u0000');
    const branch = kindBranches.get(kind);
    if (!branch) continue;
    issues = issues.filter((issue) => {
      if (issue.path === `${base}/kind` && issue.keyword === 'const') return false;
      if (!issue.path.startsWith(`${base}/`)) return issue.path !== base || issue.keyword !== 'oneOf';
      const first = unescapePointer(issue.path.slice(base.length + 1).split('/')[0] ?? '');
      if (issue.keyword === 'additionalProperties' && issue.path === `${base}/${escapePointer(first)}`) return !branch.properties.has(first);
      if (issue.keyword === 'required' && issue.path === `${base}/${escapePointer(first)}`) return branch.required.has(first);
      return branch.properties.has(first);
    });
  }

  // Property-selected unions (a step is exactly one of model/tools/...): drop "required" for the
  // alternatives the value did not choose, when something more specific explains the failure.
  const oneOfPaths = new Set(issues.filter((i) => i.keyword === 'oneOf').map((i) => i.path));
  issues = issues.filter((issue) => {
    if (issue.keyword !== 'required') return true;
    const parent = issue.path.slice(0, issue.path.lastIndexOf('/'));
    if (!oneOfPaths.has(parent) || [...discriminated].some((k) => k.startsWith(`${parent}\u0000`))) return true;
    const others = issues.filter((o) => o !== issue && o.keyword !== 'required' && o.keyword !== 'oneOf' && (o.path === parent || o.path.startsWith(`${parent}/`)));
    return others.length === 0;
  });

  // A union's summary line adds nothing once a concrete issue under it is shown.
  const summary = (i: SchemaIssue) => i.keyword === 'oneOf' || i.keyword === 'anyOf' || i.keyword === 'if';
  const concrete = issues.filter((i) => !summary(i));
  issues = issues.filter((i) => !summary(i) || !concrete.some((c) => c.path === i.path || c.path.startsWith(`${i.path}/`)));

  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** For every schema definition with `properties.kind.const`: its allowed and required properties. */
function collectKindBranches(): Map<string, { properties: Set<string>; required: Set<string> }> {
  const schemaFile = join(defaultScenariosDir, '..', 'schemas', 'scenario.schema.json');
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { definitions?: Record<string, { properties?: Record<string, { const?: unknown }>; required?: string[] }> };
  const branches = new Map<string, { properties: Set<string>; required: Set<string> }>();
  for (const definition of Object.values(schema.definitions ?? {})) {
    const kind = definition.properties?.['kind']?.const;
    if (typeof kind === 'string') branches.set(kind, { properties: new Set(Object.keys(definition.properties ?? {})), required: new Set(definition.required ?? []) });
  }
  return branches;
}

/** The value at a JSON pointer, or undefined. */
export function at(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let current: unknown = value;
  for (const token of pointer.slice(1).split('/').map(unescapePointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `cedar_creek_briefing.json` -> `cedar_creek_briefing` */
export function idFromFile(file: string): string {
  return basename(file).replace(/\.json$/, '');
}
