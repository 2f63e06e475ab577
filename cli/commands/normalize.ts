/**
 * `adk-conformance normalize`: the block-index normaliser (seed 003) as an NDJSON stdio filter,
 * the contract implementations in other languages are certified against (docs/normalizer.md).
 *
 * One input event per line on stdin, one output event per line on stdout, written as soon as its
 * line is read. A line that is not JSON becomes an `error` event naming the line number and the
 * JSON problem; the filter goes on. End of input emits `stream_end`. Exit 0, 1 on an I/O error, 2 on a usage error.
 */
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { parseOptions } from '../args.ts';
import { createBlockNormalizer, type BlockStreamEvent } from '../../reference-impl/block-normalizer.ts';

const help = `usage: adk-conformance normalize < turn.ndjson > events.ndjson

Reads the events of ONE agent turn as NDJSON on stdin: Anthropic Messages stream events
(message_start, content_block_start, content_block_delta, content_block_stop, message_delta,
message_stop, ping, error) and tool records between messages
({"type":"tool_result","tool_use_id":...,"content":...} and
{"type":"tool_execution_error","tool_use_id":...,"error":"..."}).
Writes seed 003's block-indexed events {"event_type":...,"data":{...}} as NDJSON on stdout,
one line each, flushed per input line; blank lines are skipped; a malformed line becomes an
"error" event with its line number; end of input writes "stream_end".
Exit status: 0 when all input was read, 1 on an I/O error, 2 on a usage error (an argument or an
unknown option). See docs/normalizer.md.`;

export type NormalizeStdio = { stdin: Readable; stdout: Writable; stderr: Writable };

export async function run(argv: string[], stdio: NormalizeStdio = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const { values, positionals } = parseOptions(argv, {}, help);
  if (values.help) { stdio.stdout.write(help + '\n'); return 0; }
  if (positionals.length > 0) {
    stdio.stderr.write(`adk-conformance normalize: unexpected argument '${positionals[0]}'; the filter reads stdin only (normalize < file.ndjson).\n`);
    return 2;
  }
  return filter(stdio);
}

async function filter({ stdin, stdout, stderr }: NormalizeStdio): Promise<number> {
  let ioError: Error | undefined;
  const onIoError = (error: Error) => { ioError ??= error; };
  stdout.on('error', onIoError);
  stdin.on('error', onIoError);

  let pending: string[] = [];
  let lineNumber = 0;
  const normalizer = createBlockNormalizer({
    onEvent(event: BlockStreamEvent) {
      // An error about a line names that line, so a certifier can point at the input.
      const out = event.event_type === 'error' && lineNumber > 0 ? { event_type: event.event_type, data: { ...event.data, line: lineNumber } } : event;
      pending.push(JSON.stringify(out) + '\n');
    },
  });

  // Written per input line, waiting for 'drain' so a slow reader holds the input back instead of filling memory.
  const flush = async () => {
    if (pending.length === 0 || ioError) return;
    const text = pending.join('');
    pending = [];
    try {
      if (!stdout.write(text)) await Promise.race([once(stdout, 'drain'), once(stdout, 'error')]);
    } catch (error) {
      onIoError(error as Error);
    }
  };

  const lines = createInterface({ input: stdin, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      let input: unknown;
      try {
        input = JSON.parse(line);
      } catch (error) {
        pending.push(JSON.stringify({ event_type: 'error', data: { reason: 'invalid_json', message: `line ${lineNumber} is not JSON: ${(error as Error).message}`, line: lineNumber, input: line } }) + '\n');
        await flush();
        if (ioError) break;
        continue;
      }
      normalizer.feed(input);
      await flush();
      if (ioError) break;
    }
  } catch (error) {
    onIoError(error as Error);
  }
  if (!ioError) {
    lineNumber = 0;
    normalizer.end();
    await flush();
  }
  if (ioError) {
    // EPIPE means the reader went away: nothing more can be said on stdout, so say it on stderr.
    stderr.write(`adk-conformance normalize: I/O error: ${ioError.message}\n`);
    lines.close();
    return 1;
  }
  return 0;
}
