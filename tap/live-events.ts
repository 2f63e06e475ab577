/**
 * The data the tap's live plugins consume (`--otlp`, `--ui`): one stream of small, already-judged
 * events per tap, independent of how the core is built, so a plugin is wired to the core by a
 * thin adapter and tested without it. Nothing here does I/O.
 *
 * Order: a run's `run-start` comes first, then its `frame` and `finding` events in the order the
 * tap judged them, then `run-end`. Runs interleave (several clients stream at once), so every
 * event names its run. A sink must tolerate an event for a run it never saw start (it may have
 * dropped or evicted it) by ignoring it.
 */
import type { Finding } from '../harness/model.ts';

export type LiveEvent =
  | {
      kind: 'run-start';
      /** Unique within one tap process (e.g. `tap-run-0001`); every later event of the run carries it. */
      runId: string;
      /** When the request arrived, epoch ms. */
      at: number;
      /** The client's HTTP method (`POST`). */
      method: string;
      /** The path the client asked for, with its query when it had one (`/run_sse`). */
      path: string;
      /** The tap's name, so several taps (front of a gateway, behind it) can share one sink: `front`, `back`. */
      tap: string;
      /** The stream dialect detected so far (`adk-js`, `adk-python`...), when known at the start. */
      dialect?: string;
    }
  | {
      kind: 'frame';
      runId: string;
      /** 0-based among the run's dispatched SSE events. */
      index: number;
      /** When the tap dispatched it, epoch ms. */
      at: number;
      /** The frame's size on the wire, in bytes, before any cut. */
      bytes: number;
      /** The event's data, capped at `maxFrameDataBytes` of UTF-8; a cut one ends with `frameCutNote`. */
      data: string;
      /** The SSE `event:` field, when the upstream set one. */
      event?: string;
      /** What the tap found wrong in this frame (empty when it passed). */
      findings: Finding[];
    }
  | {
      kind: 'finding';
      runId: string;
      at: number;
      /** A run-level finding, not tied to a frame: headers, the request, framing, how the stream ended. */
      finding: Finding;
    }
  | {
      kind: 'run-end';
      runId: string;
      /** When the exchange ended, epoch ms. */
      at: number;
      /**
       * complete: the upstream ended the body; client-disconnected: the client left first;
       * upstream-disconnected: the upstream broke the connection mid-body; error: no usable
       * HTTP response (refused, not HTTP) or the tap stopped mid-run.
       */
      ending: 'complete' | 'client-disconnected' | 'upstream-disconnected' | 'error';
      /** The upstream's HTTP status, when it answered. */
      status?: number;
      /** Frames the run dispatched in all (a sink may have kept fewer). */
      frames: number;
      /** Findings the tap judged for the run in all, frame-level and run-level. */
      findings: number;
      /** failed when the tap judged any requirement failed for this run. */
      verdict: 'passed' | 'failed';
      /** A failed run's first finding, the one to read first (frame-level or run-level). */
      firstFinding?: Finding;
      /** A failed run's curl line that sends the same request through the tap again, credentials as shell variables. */
      replay?: string;
    };

/**
 * Where the tap publishes. `publish` never throws into the tap and never waits: the tap forwards
 * bytes first, so a slow or failing sink must cost it nothing. A sink buffers boundedly, drops
 * (and counts) what does not fit, and reports its first problem of each kind to the `onError` it
 * was created with.
 */
export type LiveSink = {
  publish(event: LiveEvent): void;
  /** Flush what is buffered and release everything (servers, exporters). Safe to call twice. */
  close(): Promise<void>;
};

/** The most UTF-8 bytes of a frame's data an event carries. */
export const maxFrameDataBytes = 4096;

/** What a cut frame's data ends with, so no consumer mistakes a prefix for the whole event. */
export const frameCutNote = (totalBytes: number) => ` [cut: ${totalBytes} bytes, the first ${maxFrameDataBytes} shown]`;

/** A frame's data as a LiveEvent carries it: whole when small, else cut on a character boundary with the note. */
export function capFrameData(data: string): string {
  const total = Buffer.byteLength(data, 'utf8');
  if (total <= maxFrameDataBytes) return data;
  // Cut before the character that straddles the limit (its continuation bytes are 10xxxxxx), so
  // the prefix never ends in a U+FFFD the upstream did not send.
  const bytes = Buffer.from(data, 'utf8');
  let end = maxFrameDataBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + frameCutNote(total);
}
