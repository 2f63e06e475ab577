/**
 * The CLI as a user runs it (`adk-conformance <command> ...`), through cli/main.ts's own dispatch.
 * `record` is registered here when the command registry does not list it yet, so the end-to-end
 * tests exercise the same code path either way. Run: node --import tsx test/record-cli-entry.ts ARGS
 */
import { commands, main } from '../cli/main.ts';

commands['record'] ??= { summary: 'record a real run into a scenario', load: () => import('../cli/commands/record.ts') };
process.exitCode = await main(process.argv.slice(2));
