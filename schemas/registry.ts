/**
 * The one JSON Schema registry: a single ajv instance (draft-07, all errors, formats) holding every
 * `schemas/<name>.schema.json`. Files are read once, at import; each schema is compiled the first
 * time something validates against it, so a process that only checks scenarios never pays for the others.
 *
 * Compiled (the package, dist/), the validators come precompiled: `npm run build` writes ajv's
 * standalone code for every schema and definition to dist/schemas/validators.cjs
 * (scripts/precompile-schemas.ts, `validatorSource` below), made by the same options. A `run` otherwise
 * spent about 0.2 s of CPU on ajv at start (loading it, checking the schemas against the meta-schema,
 * compiling the scenario schema); the file loads in about 20 ms. It is used only while the schema files
 * are the ones it was made from (their hash is in it), and ajv itself is loaded only for a reference the
 * file lacks.
 *
 * A schema is named by its file name without `.schema.json` (`adk-event`), or by a JSON pointer into
 * one (`block-stream-event#/definitions/anthropicEvent`, `adk-event#/definitions/adkJsEvent`).
 */
import { compiled as runningCompiled, packageRoot } from '../core/package-root.ts';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { AdkEvent, AgentBriefingEvent, AgentBriefingEvent11, AuditEvent, Baseline, BlockStreamEvent, BriefingMapping, Config, Report, RunAgentRequest, Scenario, SseErrorFrame } from './types.ts';

/** Every schema file, by name. A test keeps this list equal to the files on disk. */
export const schemaNames = [
  'adk-event',
  'agent-briefing-event',
  'agent-briefing-event-1-1',
  'audit-event',
  'baseline',
  'block-stream-event',
  'briefing-mapping',
  'config',
  'report',
  'run-agent-request',
  'scenario',
  'sse-error-frame',
] as const;

export type SchemaName = (typeof schemaNames)[number];

/** A whole schema, or a JSON pointer into one (`<name>#/definitions/<def>`). */
export type SchemaRef = SchemaName | `${SchemaName}#/${string}`;

/** The generated TypeScript type of each schema (schemas/types.ts, `npm run gen:types`). */
export type SchemaTypes = {
  'adk-event': AdkEvent;
  'agent-briefing-event': AgentBriefingEvent;
  'agent-briefing-event-1-1': AgentBriefingEvent11;
  'audit-event': AuditEvent;
  baseline: Baseline;
  'block-stream-event': BlockStreamEvent;
  'briefing-mapping': BriefingMapping;
  config: Config;
  report: Report;
  'run-agent-request': RunAgentRequest;
  scenario: Scenario;
  'sse-error-frame': SseErrorFrame;
};

/** One reason a value breaks a schema. */
export type SchemaIssue = {
  /** JSON pointer to the offending value ('' is the root); for `required`, the object missing the property. */
  path: string;
  message: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `enum`, `pattern`, ...). */
  keyword: string;
  params: Record<string, unknown>;
};

export type ValidationResult = { valid: boolean; errors: SchemaIssue[] };

const validResult: ValidationResult = Object.freeze({ valid: true, errors: Object.freeze([]) as unknown as SchemaIssue[] });

export const schemasDir = join(packageRoot, 'schemas');
export const schemaIdBase = 'https://adk-conformance.dev/schemas/';

const documents = new Map<SchemaName, Record<string, unknown>>();
const filesHash = createHash('sha256');
for (const name of schemaNames) {
  const file = join(schemasDir, `${name}.schema.json`);
  const text = readFileSync(file, 'utf8');
  filesHash.update(`${name}\u0000${text}\u0000`);
  const schema = JSON.parse(text) as Record<string, unknown>;
  const expectedId = `${schemaIdBase}${name}.schema.json`;
  if (schema.$id !== expectedId) {
    throw new Error(`schemas/${name}.schema.json has $id ${JSON.stringify(schema.$id)}; set it to "${expectedId}" so references between schemas resolve`);
  }
  documents.set(name, schema);
}
/** The schema files' hash: precompiled validators made from other files are not used. */
export const schemasHash: string = filesHash.digest('hex');

/**
 * A new ajv holding every schema. ajv is CommonJS, loaded here on first need (not at import) so a process
 * served by the precompiled validators never loads it. `source`: keep each function's code (standalone).
 */
function newAjv(source = false): Ajv {
  const require = createRequire(import.meta.url);
  const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
  // ajv-formats is CommonJS: its export is the plugin itself on some toolchains and the module object on others.
  const formats = require('ajv-formats') as { default?: unknown };
  const addFormats = (formats.default ?? formats) as (ajv: Ajv) => Ajv;
  // strict: false because the schemas carry annotation keywords ajv's strict mode rejects in
  // places (e.g. `title` inside definitions, `default` beside `$ref`); the schema tests are the guard.
  const ajv = new AjvClass({ strict: false, allErrors: true, ...(source ? { code: { source: true } } : {}) });
  addFormats(ajv);
  for (const schema of documents.values()) ajv.addSchema(schema);
  return ajv;
}

let runtimeAjv: Ajv | undefined;

/** Every schema and each of its definitions, by the name `validate` takes. */
function precompiledRefs(): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const [name, doc] of documents) {
    refs[name] = `${schemaIdBase}${name}.schema.json`;
    for (const def of Object.keys((doc.definitions ?? {}) as object)) refs[`${name}#/definitions/${def}`] = `${schemaIdBase}${name}.schema.json#/definitions/${def}`;
  }
  return refs;
}

/** Where the precompiled file keeps the hash of the schema files it was made from. */
const precompiledHashKey = '#schemasHash';

/** ajv's standalone code (CommonJS) for every schema and definition, with the schema files' hash: dist/schemas/validators.cjs. */
export function validatorSource(): string {
  const require = createRequire(import.meta.url);
  const standalone = require('ajv/dist/standalone') as { default: (ajv: Ajv, refs: Record<string, string>) => string };
  return `${standalone.default(newAjv(true), precompiledRefs())}\nexports[${JSON.stringify(precompiledHashKey)}] = ${JSON.stringify(schemasHash)};\n`;
}

/** Validators from `file` (validatorSource's output), or undefined when it is missing or made from other schema files. */
export function loadPrecompiledValidators(file: string): Record<string, ValidateFunction> | undefined {
  if (!existsSync(file)) return undefined;
  const loaded = createRequire(import.meta.url)(file) as Record<string, unknown>;
  return loaded[precompiledHashKey] === schemasHash ? (loaded as Record<string, ValidateFunction>) : undefined;
}

export const precompiledValidatorsFile = join(packageRoot, 'dist', 'schemas', 'validators.cjs');
const precompiled = runningCompiled ? loadPrecompiledValidators(precompiledValidatorsFile) : undefined;

const compiled = new Map<string, ValidateFunction>();

function isSchemaName(name: string): name is SchemaName {
  return (schemaNames as readonly string[]).includes(name);
}

function validatorFor(ref: string): ValidateFunction {
  const cached = compiled.get(ref);
  if (cached) return cached;
  if (typeof ref !== 'string') throw new TypeError(`schema name must be a string such as 'adk-event', got ${typeof ref}`);
  const hash = ref.indexOf('#');
  const name = hash === -1 ? ref : ref.slice(0, hash);
  if (!isSchemaName(name)) {
    throw new TypeError(`unknown schema '${name}'; known schemas: ${schemaNames.join(', ')} (a file schemas/<name>.schema.json must also be listed in schemaNames)`);
  }
  const pointer = hash === -1 ? '' : ref.slice(hash);
  const fn = (Object.hasOwn(precompiled ?? {}, ref) ? precompiled?.[ref] : undefined) ?? (runtimeAjv ??= newAjv()).getSchema(`${schemaIdBase}${name}.schema.json${pointer}`);
  if (!fn) {
    const defs = Object.keys((documents.get(name)?.definitions ?? {}) as object);
    throw new TypeError(`schema '${name}' has no '${pointer}'; its definitions are: ${defs.length > 0 ? defs.map((d) => `#/definitions/${d}`).join(', ') : '(none)'}`);
  }
  compiled.set(ref, fn);
  return fn;
}

function toIssue(error: ErrorObject): SchemaIssue {
  // An enum error that does not say the values leaves the reader guessing: name them.
  const allowed = error.keyword === 'enum' ? (error.params as { allowedValues?: unknown[] }).allowedValues : undefined;
  const message = `${error.message ?? `fails ${error.keyword}`}${allowed ? ` (${allowed.map((v) => JSON.stringify(v)).join(', ')})` : ''}`;
  return { path: error.instancePath, message, keyword: error.keyword, params: { ...error.params } };
}

// A definition shared by several anyOf/oneOf branches (adk-event's eventFields) reports the same
// failure once per branch; one copy says it all.
function dedupe(issues: SchemaIssue[]): SchemaIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.keyword}\u0000${issue.message}\u0000${JSON.stringify(issue.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Validate a value; every error is reported, never only the first. Unknown names throw a TypeError. */
export function validate(name: SchemaRef, value: unknown): ValidationResult {
  return judgeWith(validatorFor(name), value);
}

/** `value` judged by one validator function, reported as `validate` reports it. */
export function judgeWith(fn: ValidateFunction, value: unknown): ValidationResult {
  // A valid value (nearly every one the tap judges) gets one shared result: no garbage per call.
  if (fn(value) as boolean) return validResult;
  return { valid: false, errors: dedupe((fn.errors ?? []).map(toIssue)) };
}

/** `/content must have required property 'summary'; /type must be equal to one of the allowed values` */
export function formatIssues(issues: readonly SchemaIssue[], max = 5): string {
  const shown = issues.slice(0, max).map((i) => `${i.path || '(root)'} ${i.message}`);
  if (issues.length > max) shown.push(`and ${issues.length - max} more`);
  return shown.join('; ');
}

/** Throw a TypeError naming the first failing paths when `value` breaks the schema; `what` names the value. */
export function assertValid<N extends SchemaName>(name: N, value: unknown, what: string): asserts value is SchemaTypes[N];
export function assertValid(name: SchemaRef, value: unknown, what: string): void;
export function assertValid(name: SchemaRef, value: unknown, what: string): void {
  const { valid, errors } = validate(name, value);
  if (!valid) throw new TypeError(`${what} is not a valid ${name} (schemas/${name.split('#')[0]}.schema.json): ${formatIssues(errors)}`);
}

/** The parsed schema document (read-only; for tooling such as docs and the CLI). */
export function schemaDocument(name: SchemaName): Readonly<Record<string, unknown>> {
  const doc = documents.get(name);
  if (!doc) throw new TypeError(`unknown schema '${String(name)}'; known schemas: ${schemaNames.join(', ')}`);
  return doc;
}
