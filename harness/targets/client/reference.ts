/**
 * The reference POST SSE client (reference-impl/client.ts) under the client module contract
 * (docs/client-contract.md "Module contract"): `createClient({baseUrl, idleMs, graceMs,
 * callIdleMs})` returns `{run(request, onRecord, signal)}`, which POSTs the request, reports one
 * record per dispatched event and one end record, and resolves. This is the module `adk-conformance
 * run` certifies when no target flag is given; the client mutants wrap it (`options` below).
 */
import { createRunClient, type RunClientConfig } from '../../../reference-impl/client.ts';
import type { ClientFrame, EndReason } from '../../../reference-impl/transformer/frames.ts';
import { endRecord, type EndName, type EndRecord, type EventRecord } from '../../checks/client/expected.ts';
import type { ClientFactory, ClientRecordSink, ClientWindows, ModuleClient } from './drive.ts';

/** How the kit's client end reasons read in the contract: a broken connection is a cut. */
const endNames: Record<EndReason, EndName> = {
  eof: 'eof', 'error-frame': 'error-frame', 'done-sentinel': 'done-sentinel', 'final-rule': 'final-rule', idle: 'idle',
  aborted: 'aborted', 'http-error': 'http-error', 'network-error': 'cut',
};

/** Hooks the mutants use to break one thing; the reference uses none. */
export type ReferenceClientHooks = {
  config?: Partial<Pick<RunClientConfig, 'createReader' | 'fetch' | 'headers'>>;
  /** Rewrite (or drop, with null) each record before it is reported. */
  record?: (record: EventRecord | EndRecord) => EventRecord | EndRecord | null;
};

export function recordOf(frame: Exclude<ClientFrame, { kind: 'issue' }>): EventRecord | EndRecord {
  if (frame.kind === 'end') return endRecord(endNames[frame.reason], frame.status, frame.reason === 'http-error' ? frame.body : undefined);
  return { data: frame.data, ...(frame.sse?.event !== undefined ? { event: frame.sse.event } : {}), ...(frame.sse?.id !== undefined ? { id: frame.sse.id } : {}) };
}

export function createReferenceClient(options: ClientWindows & { baseUrl: string }, hooks: ReferenceClientHooks = {}): ModuleClient {
  const client = createRunClient({ baseUrl: options.baseUrl, idleMs: options.idleMs, graceMs: options.graceMs, callIdleMs: options.callIdleMs, ...hooks.config });
  return {
    async run(request: Record<string, unknown>, onRecord: ClientRecordSink, signal: AbortSignal): Promise<void> {
      for await (const frame of client.run(request, { signal })) {
        // Framing issues (invalid UTF-8, an unfinished event) are the client's own business: no record.
        if (frame.kind === 'issue') continue;
        const record = hooks.record ? hooks.record(recordOf(frame)) : recordOf(frame);
        if (record !== null) onRecord(record);
      }
    },
  };
}

export const createClient: ClientFactory = (options) => createReferenceClient(options);
