/**
 * The module contract (docs/client-contract.md) around use-sse.ts. The library is written for a
 * browser tab: it reads `window.fetch`, `window.setTimeout` and `document.hidden`. Here they are a
 * tab in the foreground (Node's own fetch and timers, a document that is never hidden), and
 * nothing else is added: each message is a record (`event` and `id` when non-empty, the library
 * gives '' for none); the promise resolving is `eof`, or `aborted` when the harness aborted;
 * a rejection is `cut`.
 */
const g = globalThis as Record<string, unknown>;
g.window ??= globalThis;
g.document ??= { hidden: false, addEventListener() {}, removeEventListener() {} };

const { streamRunSse } = await import('./use-sse.ts');
type RunAgentRequest = Parameters<typeof streamRunSse>[1];

export function createClient(options: { baseUrl: string }) {
  return {
    async run(request: RunAgentRequest, onRecord: (record: object) => void, signal: AbortSignal): Promise<void> {
      try {
        await streamRunSse(`${options.baseUrl}/run_sse`, request, (e) => onRecord({ data: e.data, ...(e.event ? { event: e.event } : {}), ...(e.id ? { id: e.id } : {}) }), signal);
        onRecord(signal.aborted ? { end: 'aborted', completed: false } : { end: 'eof', completed: true });
      } catch {
        onRecord({ end: 'cut', completed: false });
      }
    },
  };
}
