/**
 * The kit's CLI as a child process, the way CI runs it: `node bin/adk-conformance.js ARGS` with
 * CI=1 (no progress line), stdout and stderr collected whole.
 */
import { spawn } from 'node:child_process';

export type CliRun = { code: number | null; stdout: string; stderr: string };

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, wrapper: string[] = []): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    // Colour only when a test asks for it: an inherited FORCE_COLOR would put escapes in every line matched.
    const { FORCE_COLOR: _force, NO_COLOR: _no, ...inherited } = process.env;
    // `wrapper`: a command the CLI runs under (`taskset -c 1`), its children inheriting what it sets.
    const line = [...wrapper, process.execPath, 'bin/adk-conformance.js', ...args];
    const child = spawn(line[0] as string, line.slice(1), { env: { ...inherited, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
