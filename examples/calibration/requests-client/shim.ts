/**
 * The module contract (docs/client-contract.md) around the Python client: the module contract is
 * the one where the client makes the real request, and requests' behaviour depends on the
 * response headers, so shim.py runs it as a child and its records are passed on unchanged. An
 * abort kills the child and is reported as `aborted`.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export function createClient(options: { baseUrl: string }) {
  return {
    run(request: object, onRecord: (record: object) => void, signal: AbortSignal): Promise<void> {
      return new Promise((resolve) => {
        const child = spawn('python3', ['shim.py', options.baseUrl], { cwd: here, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
        const onAbort = () => { child.kill('SIGKILL'); };
        signal.addEventListener('abort', onAbort, { once: true });
        createInterface({ input: child.stdout }).on('line', (line) => { if (line.trim() !== '') onRecord(JSON.parse(line) as object); });
        child.on('close', () => {
          signal.removeEventListener('abort', onAbort);
          if (signal.aborted) onRecord({ end: 'aborted', completed: false });
          resolve();
        });
        child.stdin.end(JSON.stringify(request));
      });
    },
  };
}
