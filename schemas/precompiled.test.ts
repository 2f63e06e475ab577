/**
 * The compiled kit's precompiled validators (dist/schemas/validators.cjs, written by
 * scripts/precompile-schemas.ts; the tests' dist/ has it, scripts/checkout-dist.ts) judge every
 * example of schemas/tests/ as the registry's runtime ajv does, error for error; a file made from other
 * schema files, or none, is not used.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { judgeWith, loadPrecompiledValidators, precompiledValidatorsFile, schemaDocument, schemaNames, schemasDir, schemasHash, validate, type SchemaRef } from './registry.ts';

type SchemaCase = { description: string; schema: string; tests: Array<{ description: string; data: unknown; valid: boolean }> };

const scratch = mkdtempSync(join(tmpdir(), 'adk-precompiled-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const cases = readdirSync(join(schemasDir, 'tests')).filter((f) => f.endsWith('.json')).sort()
  .flatMap((f) => (JSON.parse(readFileSync(join(schemasDir, 'tests', f), 'utf8')) as SchemaCase[]).map((c) => ({ file: f, ...c })));

describe('precompiled schema validators', () => {
  const precompiled = loadPrecompiledValidators(precompiledValidatorsFile);

  it('are in the tests\' dist/, made from these schema files, with every schema and each of its definitions', () => {
    expect(precompiled, `${precompiledValidatorsFile} is missing or was made from other schema files`).toBeDefined();
    for (const name of schemaNames) {
      expect(typeof precompiled?.[name], name).toBe('function');
      for (const def of Object.keys((schemaDocument(name).definitions ?? {}) as object)) expect(typeof precompiled?.[`${name}#/definitions/${def}`], `${name}#/definitions/${def}`).toBe('function');
    }
  });

  it('judge every example of schemas/tests/ as the runtime ajv does, with the same errors', () => {
    let judged = 0;
    for (const c of cases) {
      const fn = precompiled?.[c.schema];
      expect(fn, `${c.file}: ${c.schema}`).toBeDefined();
      for (const t of c.tests) {
        expect(judgeWith(fn as ValidateFunction, t.data), `${c.file} "${t.description}"`).toEqual(validate(c.schema as SchemaRef, t.data));
        judged += 1;
      }
    }
    expect(judged).toBeGreaterThan(100);
  });

  it('are not used when made from other schema files, or when there is no file', () => {
    const other = join(scratch, 'other.cjs');
    writeFileSync(other, `exports['#schemasHash'] = ${JSON.stringify(`not-${schemasHash}`)};\nexports['config'] = () => true;\n`);
    expect(loadPrecompiledValidators(other)).toBeUndefined();
    expect(loadPrecompiledValidators(join(scratch, 'none.cjs'))).toBeUndefined();
  });
});
