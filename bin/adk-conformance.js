#!/usr/bin/env node
// The bin runs the TypeScript sources directly through tsx, so no build step is needed after `npm ci`.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

register();
const here = dirname(fileURLToPath(import.meta.url));
const { main } = await import(join(here, '..', 'cli', 'main.ts'));
process.exitCode = await main(process.argv.slice(2));
