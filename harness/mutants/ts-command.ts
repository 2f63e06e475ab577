/**
 * The shell command that runs one of the kit's TypeScript programs the way a team's command is
 * given to the harness: `node --import <tsx> <file> <args>`, every path shell-quoted.
 */
import { createRequire } from 'node:module';

const tsxLoader = createRequire(import.meta.url).resolve('tsx');
export const shellQuote = (s: string) => (/^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function tsCommand(file: string, ...args: string[]): string {
  return ['node', '--import', shellQuote(tsxLoader), shellQuote(file), ...args.map(shellQuote)].join(' ');
}
