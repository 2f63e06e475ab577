/**
 * A client built on a library that yields parsed event objects, certified through the kit's
 * parsed-value form (docs/client-contract.md "Parsed values"):
 *   npx adk-conformance run --client-module examples/adapters/parsed-client.ts
 * The library here is the kit's run client (reference-impl/client.ts), which yields each ADK event
 * already parsed, as many SSE client libraries do; the wrapper reports what it yields.
 */
import { createRunClient } from '../../reference-impl/client.ts';

/** Records carry `value` (the parsed event), not the raw `data` text. */
export const recordForm = 'parsed';

const ends = { eof: 'eof', 'error-frame': 'error-frame', 'done-sentinel': 'done-sentinel', 'final-rule': 'final-rule', idle: 'idle', aborted: 'aborted', 'http-error': 'http-error', 'network-error': 'cut' } as const;

export function createClient(options: { baseUrl: string; idleMs: number; graceMs: number; callIdleMs: number }) {
  const client = createRunClient(options);
  return {
    async run(request: Record<string, unknown>, onRecord: (record: object) => void, signal: AbortSignal): Promise<void> {
      for await (const frame of client.run(request, { signal })) {
        const sse = 'sse' in frame && frame.sse ? { ...(frame.sse.event !== undefined ? { event: frame.sse.event } : {}), ...(frame.sse.id !== undefined ? { id: frame.sse.id } : {}) } : {};
        if (frame.kind === 'event') onRecord({ value: frame.event, ...sse });
        else if (frame.kind === 'error') onRecord({ value: frame.error, ...sse });
        else if (frame.kind === 'end') {
          const end = ends[frame.reason];
          onRecord({ end, completed: ['eof', 'done-sentinel', 'final-rule'].includes(end), ...(frame.status !== undefined ? { status: frame.status } : {}), ...(frame.reason === 'http-error' ? { error: frame.body ?? '' } : {}) });
        }
      }
    },
  };
}
