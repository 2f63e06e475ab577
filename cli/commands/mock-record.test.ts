/** The recording-proxy options of `adk-conformance mock` (docs/recording.md). */
import { describe, expect, it } from 'vitest';
import { run } from './mock.ts';

const io = { out: () => {}, err: () => {} };

describe('adk-conformance mock --record-from', () => {
  it.each([
    [['--record-dir', 'x'], /--record-dir only works with --record-from URL/],
    [['--redact', 'x'], /--redact only works with --record-from URL/],
    [['--record-from', 'not a url'], /--record-from not a url is not an http\(s\) URL/],
    [['--record-from', 'ftp://127.0.0.1'], /is not an http\(s\) URL/],
    [['--record-from', 'http://127.0.0.1:1', '--redact', '('], /--redact "\(" is not a valid regular expression/],
  ])('refuses %j before listening', async (argv, message) => {
    await expect(run(argv, io)).rejects.toThrow(message);
  });

  it('announces the proxy and where recordings go, then stops on a signal', async () => {
    const out: string[] = [];
    let stop: (s: string) => void = () => {};
    const code = await run(['--port', '0', '--record-from', 'http://127.0.0.1:1', '--record-dir', '/tmp/never-written'], {
      out: (line) => { out.push(line); if (line.startsWith('recording proxy')) stop('SIGTERM'); },
      err: () => {},
      stopSignal: new Promise((resolve) => { stop = resolve; }),
    });
    expect(code).toBe(0);
    expect(out).toContain('recording proxy: forwarding to http://127.0.0.1:1; runs are written to /tmp/never-written');
  });
});
