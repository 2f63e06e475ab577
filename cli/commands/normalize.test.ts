import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { validate } from '../../schemas/registry.ts';

const bin = fileURLToPath(new URL('../../bin/adk-conformance.js', import.meta.url));

function spawnFilter(args: string[] = []) {
  return spawn(process.execPath, [bin, 'normalize', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Run the real command on `input`, collect stdout lines and the exit code. */
async function filter(input: string, args: string[] = []) {
  const child = spawnFilter(args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString('utf8'); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString('utf8'); });
  child.stdin.end(input);
  const [code] = await once(child, 'close') as [number];
  const events = () => stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { event_type: string; data: Record<string, unknown> });
  const parsed = args.length === 0 ? events() : [];
  for (const e of parsed) expect(validate('block-stream-event', e).errors).toEqual([]);
  return { code, stdout, stderr, events: parsed };
}

const ndjson = (events: unknown[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';

const seedFlow = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5' } },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'plan' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'T1', name: 'lookup', input: {} } },
  { type: 'content_block_stop', index: 1 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null } },
  { type: 'message_stop' },
  { type: 'tool_result', tool_use_id: 'T1', content: 'found' },
  { type: 'message_start', message: { id: 'msg_2', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5' } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '{"ok":true}' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_stop' },
];

describe('adk-conformance normalize (NDJSON stdio filter)', () => {
  test('the seed 003 §3.2 flow comes out with indices 0, 1, 2 and ends with stream_end, exit 0', async () => {
    const { code, events } = await filter(ndjson(seedFlow));
    expect(code).toBe(0);
    expect(events.filter((e) => typeof e.data.index === 'number').map((e) => `${e.event_type}:${e.data.index}`)).toEqual([
      'text_block_start:0', 'text_delta:0', 'content_block_stop:0',
      'tool_use_start:1', 'content_block_stop:1', 'tool_use_input_complete:1', 'tool_result:1',
      'text_block_start:2', 'text_delta:2', 'content_block_stop:2',
    ]);
    expect(events.at(-1)).toEqual({ event_type: 'stream_end', data: {} });
  });

  test('a malformed line becomes an error event naming its line number, and the filter goes on', async () => {
    const lines = ndjson(seedFlow.slice(0, 2)) + '{"type": "content_block_delta", "index": 0,\n' + ndjson(seedFlow.slice(2, 4));
    const { code, events } = await filter(lines);
    expect(code).toBe(0);
    const error = events.find((e) => e.event_type === 'error');
    expect(error?.data).toMatchObject({ reason: 'invalid_json', line: 3, input: '{"type": "content_block_delta", "index": 0,' });
    expect(error?.data.message).toMatch(/^line 3 is not JSON: /);
    expect(events.map((e) => e.event_type)).toEqual(['message_start', 'text_block_start', 'error', 'text_delta', 'content_block_stop', 'stream_end']);
  });

  test('errors the normaliser reports carry the line of the input that caused them', async () => {
    const { events } = await filter(ndjson([seedFlow[0], { type: 'content_block_delta', index: 7, delta: { type: 'text_delta', text: 'x' } }]));
    expect(events[1]?.data).toMatchObject({ reason: 'unknown_block_index', llm_index: 7, line: 2 });
  });

  test('blank lines are skipped and CRLF line ends are accepted, line numbers still count them', async () => {
    const { events } = await filter(`\r\n${JSON.stringify(seedFlow[0])}\r\n\r\nnot json\r\n`);
    expect(events.map((e) => e.event_type)).toEqual(['message_start', 'error', 'stream_end']);
    expect(events[1]?.data.line).toBe(4);
  });

  test('empty input gives stream_end alone', async () => {
    const { code, events } = await filter('');
    expect(code).toBe(0);
    expect(events).toEqual([{ event_type: 'stream_end', data: {} }]);
  });

  test('each input line is answered before the next one is written', async () => {
    const child = spawnFilter();
    const out = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    child.stdin.write(JSON.stringify(seedFlow[0]) + '\n');
    expect(JSON.parse((await out.next()).value as string).event_type).toBe('message_start');
    child.stdin.write(JSON.stringify(seedFlow[1]) + '\n');
    expect(JSON.parse((await out.next()).value as string)).toEqual({ event_type: 'text_block_start', data: { index: 0, block_type: 'thinking' } });
    child.stdin.end();
    expect(JSON.parse((await out.next()).value as string).data).toEqual({ reason: 'block_not_stopped', message: 'the turn ended with the thinking block at index 0 never stopped', index: 0 });
    expect(JSON.parse((await out.next()).value as string).event_type).toBe('stream_end');
    const [code] = await once(child, 'close') as [number];
    expect(code).toBe(0);
  });

  test('a reader that goes away is an I/O error: exit 1 with the reason on stderr', async () => {
    const child = spawnFilter();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString('utf8'); });
    child.stdout.destroy();
    child.stdin.on('error', () => undefined);
    const line = JSON.stringify({ type: 'ping' }) + '\n';
    child.stdin.end(line.repeat(20_000));
    const [code] = await once(child, 'close') as [number];
    expect(code).toBe(1);
    expect(stderr).toMatch(/I\/O error: .*EPIPE/);
  });

  test('--help prints the contract and an argument is a usage error', async () => {
    const help = await filter('', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/usage: adk-conformance normalize/);
    // Every exit status the command has, as docs/normalizer.md lists them.
    expect(help.stdout).toMatch(/Exit status: 0 when all input was read, 1 on an I\/O error, 2 on a usage error/);
    const bad = await filter('', ['turn.ndjson']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unexpected argument 'turn.ndjson'/);
  });
});
