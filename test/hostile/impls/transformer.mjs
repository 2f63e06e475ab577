// A misbehaving transformer command (docs/transform-contract.md) for the hostile battery:
//   node test/hostile/impls/transformer.mjs <mode> [marker]
// The marker is ignored; it only makes this process findable in /proc by the test that started it.
// Every mode misbehaves on purpose; none of them reads the contract beyond stdin and stdout.
const mode = process.argv[2];

/** A plausible AgentBriefingEvent line, so the misbehaviour and not the shape is what fails. */
const statusLine = JSON.stringify({ event_id: '00000000-0000-4000-8000-000000000001', type: 'STATUS', state: 'THINKING', source_agent: 'coordinator', correlation_id: 'c', parent_event_id: null, timestamp: '2025-12-27T10:30:00Z', content: { summary: 'thinking' } });

const drain = () => { process.stdin.resume(); process.stdin.on('error', () => {}); };
const forever = () => setInterval(() => {}, 60_000);

switch (mode) {
  case 'garbage': {
    // Bytes that are neither JSON nor text, with and without line ends, then a clean exit.
    drain();
    let x = 7;
    const bytes = Buffer.alloc(8192, 0).map(() => { x = (x * 1103515245 + 12345) & 0x7fffffff; return x & 0xff; });
    process.stdout.write(bytes, () => process.exit(0));
    break;
  }
  case 'never-exits':
    // Reads its input and never answers, never exits.
    drain();
    forever();
    break;
  case 'endless-output': {
    // A stream that never ends: the same event, forever, as fast as the pipe takes it.
    drain();
    const chunk = `${statusLine}\n`.repeat(256);
    const pump = () => { while (process.stdout.write(chunk)) { /* until the pipe is full */ } process.stdout.once('drain', pump); };
    process.stdout.on('error', () => process.exit(0));
    pump();
    break;
  }
  case 'one-byte-a-second': {
    // A valid event, one byte a second: it would take minutes to finish one line.
    drain();
    let i = 0;
    const text = `${statusLine}\n`;
    setInterval(() => { if (i < text.length) process.stdout.write(text[i++]); }, 1000);
    break;
  }
  case 'early-close':
    // Half an event, then stdout and stdin closed and a clean exit, long before its input ended.
    process.stdout.write(statusLine.slice(0, 40), () => { process.stdin.destroy(); process.exit(0); });
    break;
  case 'multi-megabyte-line':
    // One 6 MB line that is not JSON, then a clean exit.
    drain();
    process.stdout.write(`{"type":"STATUS","content":{"summary":"${'x'.repeat(6 * 1024 * 1024)}\n`, () => process.exit(0));
    break;
  case 'invalid-utf8':
    // Lines whose bytes are not UTF-8 (a lone continuation byte, an overlong form, 0xFF).
    drain();
    process.stdout.write(Buffer.concat([Buffer.from('{"type":"STATUS","state":'), Buffer.from([0x80, 0xc0, 0xaf, 0xff]), Buffer.from('}\n'), Buffer.from([0xfe, 0xff, 0x0a])]), () => process.exit(0));
    break;
  case 'wrong-type':
    // JSON, but not events: an array, a number, a string, null.
    drain();
    process.stdout.write(`[${statusLine}]\n42\n"COMPLETE"\nnull\n`, () => process.exit(0));
    break;
  case 'exits-at-once':
    process.exit(3);
    break;
  case 'ignores-sigterm':
    // Never exits, and SIGTERM changes nothing: only SIGKILL stops it.
    process.on('SIGTERM', () => { process.stderr.write('SIGTERM ignored\n'); });
    drain();
    forever();
    break;
  case 'stderr-only':
    // Talks a lot, but only on stderr; stdout stays empty; a clean exit once its input ends.
    process.stdin.on('data', (chunk) => process.stderr.write(`got ${chunk.length} bytes\n`));
    process.stdin.on('end', () => process.exit(0));
    break;
  default:
    process.stderr.write(`transformer.mjs: unknown mode '${mode}'\n`);
    process.exit(64);
}
