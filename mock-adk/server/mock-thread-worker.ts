/**
 * The worker side of mock-thread.ts: start the mock with the options the main thread sent, say
 * where it listens (or why it could not), and close it when asked. Nothing else runs here.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startMock } from './start.ts';
import type { MockThreadMessage, MockThreadOptions } from './mock-thread.ts';

const port = parentPort;
if (!port) throw new Error('mock-thread-worker.ts runs only as the worker of startMockThread (mock-adk/server/mock-thread.ts)');
const post = (message: MockThreadMessage) => port.postMessage(message);

try {
  const mock = await startMock((workerData as { options: MockThreadOptions }).options);
  port.on('message', (message: unknown) => {
    if (message !== 'close') return;
    void mock.close().then(() => { post({ kind: 'closed' }); port.close(); });
  });
  post({ kind: 'listening', url: mock.url });
} catch (error) {
  const e = error as NodeJS.ErrnoException;
  post({ kind: 'failed', message: e.message, ...(e.code ? { code: e.code } : {}) });
}
