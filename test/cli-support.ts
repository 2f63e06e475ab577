/**
 * The kit's CLI as a child process, the way CI runs it: `node bin/adk-conformance.js ARGS` with
 * CI=1 (no progress line), stdout and stderr collected whole.
 */
import { spawn } from 'node:child_process';

export type CliRun = { code: number | null; stdout: string; stderr: string };

export function runCli(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/adk-conformance.js', ...args], { env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
