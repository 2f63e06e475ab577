/**
 * `adk-conformance transform`: the reference ADK -> AgentBriefingEvent transformer as an NDJSON
 * stdio filter. The contract (docs/transform-contract.md) is what implementations in other
 * languages are certified against, so everything here is byte-level explicit: how lines end, what
 * a bad line does, where the run context comes from, what the exit status means.
 */
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { parseOptions, UsageError } from '../args.ts';
import { createTransformer, type BriefingEvent } from '../../reference-impl/transformer/index.ts';
import { toSpec11 } from '../../reference-impl/transformer/spec-1-1.ts';

const help = `usage: adk-conformance transform [--session-id ID] [--correlation session|invocation]
                                [--enhanced] [--specialist NAME]... [--spec 1.0|1.1] < frames.ndjson > briefings.ndjson

Reads ONE run's /run_sse stream on stdin: one SSE data field per line, exactly as received
(an ADK event, an {"error": ...} frame, [DONE], or anything else), in order; end of input is
the end of the stream. Writes AgentBriefingEvents (seed 002) on stdout, one JSON object per line,
each written as soon as the input line that caused it is read. The last one is always the run's
single terminal event (a COMPLETE INSIGHT or an ERROR STATUS).

  --session-id ID    the run's session id (default: $ADK_CONFORMANCE_SESSION_ID)
  --correlation      session: correlation_id is the session id (the default when one is known);
                     invocation: the first invocationId of the stream
  --enhanced         the stream is /run_sse_enhanced's (seed 000): it ends with [DONE], so a
                     stream without it gets an ALERT before the terminal event
  --specialist NAME  an agent called as a tool (repeatable); without it, a call whose only
                     argument is a string 'request' is a delegation
  --spec 1.0|1.1     the AgentBriefingEvent version written (default 1.0, seed 002); 1.1 writes
                     schema_version "1.1.0", lowercase types, severity, ui_binding, suggested_actions
                     (docs/versioning.md "Spec versions")

Lines end with LF, CRLF or CR; a leading UTF-8 BOM is skipped; empty lines are skipped.
A line that is neither JSON nor [DONE] becomes an ALERT naming the line; the run goes on.
Exit status: 0 when the input was read to its end, 1 on an I/O error, 2 on a usage error.
Diagnostics go to stderr, for people. See docs/transform-contract.md.`;

export type TransformStdio = { stdin: Readable; stdout: Writable; stderr: Writable; env?: Record<string, string | undefined> };

export async function run(argv: string[], stdio: TransformStdio = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    'session-id': { type: 'string' },
    correlation: { type: 'string' },
    enhanced: { type: 'boolean' },
    specialist: { type: 'string', multiple: true },
    spec: { type: 'string' },
  }, help);
  if (values.help) { stdio.stdout.write(help + '\n'); return 0; }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'; the filter reads stdin only (transform < frames.ndjson).\n\n${help}`);
  const env = stdio.env ?? process.env;
  const sessionId = values['session-id'] ?? (env['ADK_CONFORMANCE_SESSION_ID'] || undefined);
  const correlation = values.correlation;
  if (correlation !== undefined && correlation !== 'session' && correlation !== 'invocation') throw new UsageError(`--correlation must be 'session' or 'invocation', got '${correlation}'.`);
  if (correlation === 'session' && !sessionId) throw new UsageError('--correlation session needs the session id: pass --session-id ID or set ADK_CONFORMANCE_SESSION_ID.');
  if (sessionId !== undefined && sessionId.trim() === '') throw new UsageError('--session-id must not be empty.');
  if (values.spec !== undefined && values.spec !== '1.0' && values.spec !== '1.1') throw new UsageError(`--spec must be '1.0' or '1.1', got '${values.spec}'.`);
  return filter(stdio, {
    ...(sessionId ? { sessionId } : {}),
    ...(correlation ? { correlation } : {}),
    enhanced: values.enhanced === true,
    ...(values.specialist ? { specialists: values.specialist } : {}),
    ...(values.spec === '1.1' ? { spec: '1.1' as const } : {}),
  });
}

type FilterOptions = { sessionId?: string; correlation?: 'session' | 'invocation'; enhanced: boolean; specialists?: string[]; spec?: '1.1' };

async function filter({ stdin, stdout, stderr }: TransformStdio, options: FilterOptions): Promise<number> {
  let ioError: Error | undefined;
  const onIoError = (error: Error) => { ioError ??= error; };
  stdout.on('error', onIoError);
  stdin.on('error', onIoError);

  let pending: string[] = [];
  // keepEvents: false: every event leaves through onEvent, so a run of any length holds flat memory.
  const { spec, ...engine } = options;
  const transformer = createTransformer({
    ...engine,
    keepEvents: false,
    onEvent: (event: BriefingEvent) => {
      pending.push(JSON.stringify(spec === '1.1' ? toSpec11(event) : event) + '\n');
      if (event.error?.source === 'input') stderr.write(`adk-conformance transform: ${event.error.message}\n`);
    },
  });
  // Written per input line, waiting for 'drain' so a slow reader holds the input back.
  const flush = async () => {
    if (pending.length === 0 || ioError) return;
    const text = pending.join('');
    pending = [];
    if (!stdout.write(text)) await Promise.race([once(stdout, 'drain'), once(stdout, 'error')]);
  };

  let lineNumber = 0;
  const onLine = async (line: string) => {
    lineNumber++;
    if (line === '') return;
    transformer.pushData(line, `line ${lineNumber}`);
    await flush();
  };

  try {
    for await (const line of lines(stdin)) {
      await onLine(line);
      if (ioError) break;
    }
  } catch (error) {
    onIoError(error as Error);
  }
  if (!ioError) {
    transformer.end({ reason: 'eof' });
    await flush();
  }
  if (ioError) {
    // EPIPE means the reader went away: nothing more can be said on stdout, so say it on stderr.
    stderr.write(`adk-conformance transform: I/O error: ${ioError.message}\n`);
    return 1;
  }
  return 0;
}

/**
 * The input's lines: UTF-8 (invalid bytes become U+FFFD, which then fails JSON and is reported),
 * one leading BOM dropped, lines ended by LF, CRLF or CR (the SSE line ends, so a data field
 * never contains one), a last line without its end still a line.
 */
async function* lines(input: Readable): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  for await (const chunk of input) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
    yield* complete();
  }
  buffer += decoder.decode();
  yield* complete(true);
  if (buffer !== '') yield buffer;

  function* complete(atEnd = false): Generator<string> {
    for (;;) {
      const match = /\r\n|\r|\n/.exec(buffer);
      if (!match) return;
      // A CR at the end of what arrived so far may be the first half of a CRLF: wait for more.
      if (match[0] === '\r' && match.index === buffer.length - 1 && !atEnd) return;
      yield buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
    }
  }
}
