/**
 * `adk-conformance mock ...` without the CLI's dispatcher, so bench/lib/compiled.ts can compile it
 * as the published package runs it (dist/, no tsx keepNames wrappers): the mock's figure for a
 * team that installed the kit, next to the same mock run from the sources through tsx.
 *
 *   node reports/bench/compiled/mock-arm.mjs --port 0 --scenarios DIR
 */
import { run } from '../../cli/commands/mock.ts';

process.exitCode = await run(process.argv.slice(2));
