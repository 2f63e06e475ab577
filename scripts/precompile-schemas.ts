/**
 * dist/schemas/validators.cjs: ajv's standalone validators for every schema and definition
 * (schemas/registry.ts `validatorSource`), so the compiled kit validates without compiling a schema at
 * start. The last step of `npm run build`, and of scripts/checkout-dist.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { validatorSource } from '../schemas/registry.ts';

/** Write the file into `dist` and give its path. */
export function writeSchemaValidators(dist: string): string {
  const file = join(dist, 'schemas', 'validators.cjs');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, validatorSource());
  return file;
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  const file = writeSchemaValidators(join(process.cwd(), 'dist'));
  // stderr: `npm pack --json` (prepack runs the build) keeps stdout for its JSON.
  process.stderr.write(`precompile-schemas: ${file}\n`);
}
