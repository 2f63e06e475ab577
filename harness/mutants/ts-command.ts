/**
 * The shell command that runs one of the kit's TypeScript programs the way a team's command is
 * given to the harness: `node --import <tsx> <file> <args>`, every path shell-quoted.
 */
import { createRequire } from 'node:module';
import { shellQuote } from '../../core/shell.ts';

const tsxLoader = createRequire(import.meta.url).resolve('tsx');

export function tsCommand(file: string, ...args: string[]): string {
  return ['node', '--import', shellQuote(tsxLoader), shellQuote(file), ...args.map(shellQuote)].join(' ');
}
