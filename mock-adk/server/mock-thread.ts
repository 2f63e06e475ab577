/**
 * The mock on a thread of its own (issue 14): `startMockThread` runs the same `startMock` in a
 * worker_threads Worker and hands back its URL. A certification drives its implementation, its
 * checks and the mock from one process; on one event loop the mock's rendering and writes (a
 * fifth of `npm start`'s busy main thread) queued behind the harness's own work, and the
 * machine's second core sat idle. On its own thread the mock also keeps its scripted delays
 * whatever the harness is doing. The worker sees only data (options are structured-cloned), and
 * the harness reaches the mock only through its URL, as an implementation under test does.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiled, kitModule } from '../../core/package-root.ts';
import type { StartMockOptions } from './start.ts';

export type MockThread = { url: string; close: () => Promise<void> };

/** What the worker (mock-thread-worker.ts) posts. */
export type MockThreadMessage =
  | { kind: 'listening'; url: string }
  | { kind: 'failed'; message: string; code?: string }
  | { kind: 'closed' };

/** Options a thread can take: data only (no recording proxy, whose options carry no functions but need the main thread's files). */
export type MockThreadOptions = Omit<StartMockOptions, 'recordFrom'>;

/** tsx's ESM loader API, found from this module (vitest's transform has no import.meta.resolve). */
function tsxLoaderUrl(): string {
  const root = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  return pathToFileURL(join(root, 'dist', 'esm', 'api', 'index.mjs')).href;
}

export function startMockThread(options: MockThreadOptions): Promise<MockThread> {
  const entry = pathToFileURL(kitModule('mock-adk/server/mock-thread-worker.ts')).href;
  // From source the worker needs tsx's loader, registered in the worker itself (a thread does not
  // inherit the loader `register()` put on the main thread); compiled, it imports the .js at once.
  const loader = compiled ? '' : `(await import(${JSON.stringify(tsxLoaderUrl())})).register();`;
  const worker = new Worker(`(async () => { ${loader} await import(${JSON.stringify(entry)}); })().catch((error) => { require('node:worker_threads').parentPort.postMessage({ kind: 'failed', message: String(error && error.stack || error) }); });`, {
    eval: true,
    workerData: { options },
  });
  return new Promise((resolve, reject) => {
    let closing: Promise<void> | undefined;
    const close = () => (closing ??= new Promise<void>((done) => {
      // The worker answers 'closed' once its held-open streams are ended; a stuck one is terminated.
      const timer = setTimeout(() => { void worker.terminate().then(() => done()); }, 10_000);
      worker.once('exit', () => { clearTimeout(timer); done(); });
      worker.postMessage('close');
    }));
    worker.on('message', (message: MockThreadMessage) => {
      if (message.kind === 'listening') resolve({ url: message.url, close });
      else if (message.kind === 'failed') {
        void worker.terminate();
        reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
      }
    });
    worker.once('error', (error) => reject(error));
    worker.once('exit', (code) => reject(new Error(`the mock's thread exited (code ${code}) before it listened`)));
  });
}
