/**
 * The module contract (docs/client-contract.md) around use-sse.ts, adding no logic of its own:
 * each event the client hands over is a record; the client's promise resolving is the body's end
 * (`eof`); its rejection is an HTTP error, an abort or a broken connection, as the client says.
 */
import { streamRunSse, type RunAgentRequest } from './use-sse.ts';

export function createClient(options: { baseUrl: string }) {
  return {
    async run(request: RunAgentRequest, onRecord: (record: object) => void, signal: AbortSignal): Promise<void> {
      try {
        await streamRunSse(`${options.baseUrl}/run_sse`, request, (data) => onRecord({ data }), signal);
        onRecord({ end: 'eof', completed: true });
      } catch (error) {
        const status = /^SSE request failed: (\d+)/.exec((error as Error).message)?.[1];
        if (status !== undefined) onRecord({ end: 'http-error', status: Number(status), completed: false });
        else if (signal.aborted) onRecord({ end: 'aborted', completed: false });
        else onRecord({ end: 'cut', completed: false });
      }
    },
  };
}
