/**
 * The kit's client module contract (docs/client-contract.md) around AdkApiClient.runAsync of
 * @google/adk-devtools 2.0.0, the ADK client Google publishes on npm, used as its README-less API
 * offers it: `new AdkApiClient({backendUrl}).runAsync(request)`, an async generator of parsed
 * events. No logic of its own: each yielded event is a record (re-serialized: the library parses
 * the data, so the raw text is gone); the generator's end is `eof`; what it throws is mapped by
 * its message: "Request failed with status N" is `http-error` N, any other Error before the first
 * event is `http-error` with the status unknown (0), after it an error frame (the library throws
 * the frame's `error` text) or a cut.
 */
type RunAgentRequest = { appName: string; userId: string; sessionId: string; newMessage: unknown; streaming?: boolean; stateDelta?: Record<string, unknown> };
type AdkApiClientLike = { runAsync(request: RunAgentRequest): AsyncGenerator<object, void, undefined> };

// The file itself: the package exports only its index, which loads the whole dev server. Its
// types (dist/types) import @google/adk, which is not installed here, hence the local type.
const clientFile: string = './node_modules/@google/adk-devtools/dist/esm/server/adk_api_client.js';
const { AdkApiClient } = (await import(clientFile)) as { AdkApiClient: new (config: { backendUrl: string }) => AdkApiClientLike };

export function createClient(options: { baseUrl: string }) {
  const client = new AdkApiClient({ backendUrl: options.baseUrl });
  return {
    async run(request: RunAgentRequest, onRecord: (record: object) => void, signal: AbortSignal): Promise<void> {
      let events = 0;
      try {
        for await (const event of client.runAsync(request)) {
          if (signal.aborted) break;
          events++;
          onRecord({ data: JSON.stringify(event) });
        }
        onRecord(signal.aborted ? { end: 'aborted', completed: false } : { end: 'eof', completed: true });
      } catch (error) {
        const message = (error as Error).message;
        const status = /Request failed with status (\d+)/.exec(message)?.[1];
        if (signal.aborted) onRecord({ end: 'aborted', completed: false });
        else if (events === 0 && (error as Error).name !== 'TypeError' && (status !== undefined || !(error instanceof SyntaxError))) onRecord({ end: 'http-error', status: Number(status ?? 0), error: message, completed: false });
        else if ((error as Error).name === 'Error') onRecord({ end: 'error-frame', completed: false });
        else onRecord({ end: 'cut', completed: false });
      }
    },
  };
}
