/**
 * Runs the example instances of schemas/tests/<name>.json (JSON-Schema-Test-Suite style: cases of
 * `{description, schema, tests: [{description, data, valid}]}`) against the registry, checks that
 * every schema has examples both ways, and that the generated types have not drifted from the files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateIndex, generateModule, generatedDir, schemaNames as schemaFilesOnDisk } from './generate-types.ts';
import { formatIssues, schemaNames, schemasDir, validate, type SchemaRef } from './registry.ts';

type SchemaTest = { description: string; data: unknown; valid: boolean };
type SchemaCase = { description: string; schema: string; comment?: string; tests: SchemaTest[] };

const testsDir = join(schemasDir, 'tests');

/** Parse one test file, naming the file and the index of anything malformed. */
function loadCases(file: string): SchemaCase[] {
  const value: unknown = JSON.parse(readFileSync(join(testsDir, file), 'utf8'));
  if (!Array.isArray(value)) throw new TypeError(`schemas/tests/${file} must hold an array of cases`);
  return value.map((c: unknown, i) => {
    const ok = typeof c === 'object' && c !== null && typeof (c as SchemaCase).description === 'string'
      && typeof (c as SchemaCase).schema === 'string' && Array.isArray((c as SchemaCase).tests)
      && (c as SchemaCase).tests.every((t) => typeof t.description === 'string' && typeof t.valid === 'boolean' && 'data' in t);
    if (!ok) throw new TypeError(`schemas/tests/${file} case ${i} needs {description, schema, tests: [{description, data, valid}]}`);
    return c as SchemaCase;
  });
}

const testFiles = readdirSync(testsDir).filter((f) => f.endsWith('.json')).sort();
const casesByFile = new Map(testFiles.map((f) => [f.replace(/\.json$/, ''), loadCases(f)]));

for (const [name, cases] of casesByFile) {
  describe(`schemas/tests/${name}.json`, () => {
    for (const c of cases) {
      describe(c.description, () => {
        for (const t of c.tests) {
          it(t.description, () => {
            const result = validate(c.schema as SchemaRef, t.data);
            // The issues are part of the message so a wrong expectation shows why at once.
            expect(result.valid, result.valid ? 'valid, expected invalid' : formatIssues(result.errors, 10)).toBe(t.valid);
            expect(result.errors.length > 0).toBe(!t.valid);
          });
        }
      });
    }
  });
}

describe('the schema corpus', () => {
  it('schemaNames lists exactly the schema files on disk', () => {
    expect([...schemaNames]).toEqual(schemaFilesOnDisk());
  });

  it('every schema has a test file with at least 3 valid and 3 invalid instances', () => {
    for (const name of schemaNames) {
      const cases = casesByFile.get(name);
      expect(cases, `schemas/tests/${name}.json is missing`).toBeDefined();
      const tests = (cases ?? []).flatMap((c) => c.tests);
      expect(tests.filter((t) => t.valid).length, `${name}: valid instances`).toBeGreaterThanOrEqual(3);
      expect(tests.filter((t) => !t.valid).length, `${name}: invalid instances`).toBeGreaterThanOrEqual(3);
    }
  });

  it('every test file is named after a schema and its cases target that schema', () => {
    for (const [name, cases] of casesByFile) {
      expect(schemaNames as readonly string[]).toContain(name);
      for (const c of cases) expect(c.schema.split('#')[0], `${name}.json: ${c.description}`).toBe(name);
    }
  });

  it('descriptions and titles in schemas and tests are statements, never "should"', () => {
    const texts: string[] = [];
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) { node.forEach(collect); return; }
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if ((key === 'description' || key === 'title') && typeof value === 'string') texts.push(value);
        else collect(value);
      }
    };
    for (const name of schemaNames) collect(JSON.parse(readFileSync(join(schemasDir, `${name}.schema.json`), 'utf8')));
    for (const cases of casesByFile.values()) for (const c of cases) texts.push(c.description, ...c.tests.map((t) => t.description));
    // A quoted 'should' names the word (a gate level, or scenario.schema.json's "never 'should'"), it does not use it.
    expect(texts.filter((t) => /(?<!['"])\bshould\b(?!['"])/.test(t))).toEqual([]);
  });

  it('test descriptions are unique within their case', () => {
    for (const cases of casesByFile.values()) {
      for (const c of cases) {
        const seen = c.tests.map((t) => t.description);
        expect(new Set(seen).size, c.description).toBe(seen.length);
      }
    }
  });

  it('every schema declares draft-07, its $id, a title and a description', () => {
    for (const name of schemaNames) {
      const schema = JSON.parse(readFileSync(join(schemasDir, `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
      expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(schema.$id).toBe(`https://adk-conformance.dev/schemas/${name}.schema.json`);
      expect(typeof schema.title).toBe('string');
      expect(typeof schema.description).toBe('string');
    }
  });
});

describe('generated types', () => {
  // Drift: the generator's output for each schema equals the committed file; run `npm run gen:types`.
  for (const name of schemaFilesOnDisk()) {
    it(`schemas/generated/${name}.ts matches schemas/${name}.schema.json`, () => {
      expect(readFileSync(join(generatedDir, `${name}.ts`), 'utf8')).toBe(generateModule(name));
    });
  }

  it('schemas/types.ts exports every generated type', () => {
    expect(readFileSync(join(schemasDir, 'types.ts'), 'utf8')).toBe(generateIndex(schemaFilesOnDisk()));
  });
});
