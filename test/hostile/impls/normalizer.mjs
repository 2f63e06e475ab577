// A misbehaving block-index normaliser command (docs/normalizer.md) for the hostile battery:
//   node test/hostile/impls/normalizer.mjs <mode> [marker]
// The marker is ignored; it only makes this process findable in /proc by the test that started it.
const mode = process.argv[2];
const drain = () => { process.stdin.resume(); process.stdin.on('error', () => {}); };

switch (mode) {
  case 'garbage':
    // Not JSON, and one line without a line end, then a clean exit.
    drain();
    process.stdout.write('<<not json>>\n\u0000\u0001\u0002 binary\n{"event_type":"content_block_start","data":', () => process.exit(0));
    break;
  case 'exits-at-once':
    process.exit(3);
    break;
  case 'never-exits':
    drain();
    setInterval(() => {}, 60_000);
    break;
  case 'stderr-only':
    process.stdin.on('data', (chunk) => process.stderr.write(`got ${chunk.length} bytes\n`));
    process.stdin.on('end', () => process.exit(0));
    break;
  default:
    process.stderr.write(`normalizer.mjs: unknown mode '${mode}'\n`);
    process.exit(64);
}
