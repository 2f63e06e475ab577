/**
 * The kit's reference block normaliser behind the TypeScript adapter: served in the session form
 * (and still in the one-shot form). Certify it with
 *   npx adk-conformance run --normalizer-cmd "npx tsx examples/session-adapter/reference-normalizer.ts"
 */
import { createBlockNormalizer } from '../../reference-impl/block-normalizer.ts';
import { serveOrRunOnce } from './adapter.ts';

await serveOrRunOnce({ name: 'reference-normalizer', version: '0.1.0', language: 'typescript', parts: ['normalizer'] }, (_env, write) => {
  // The filter's rules (cli/commands/normalize.ts): an error names its input line; a line that is not JSON is an invalid_json error.
  let line = 0;
  const n = createBlockNormalizer({
    onEvent: (event) => write(JSON.stringify(event.event_type === 'error' && line > 0 ? { ...event, data: { ...event.data, line } } : event)),
  });
  return {
    onLine: (text) => {
      line++;
      if (text.trim() === '') return;
      let input: unknown;
      try { input = JSON.parse(text); } catch (error) {
        write(JSON.stringify({ event_type: 'error', data: { reason: 'invalid_json', message: `line ${line} is not JSON: ${(error as Error).message}`, line, input: text } }));
        return;
      }
      n.feed(input);
    },
    onEnd: () => { line = 0; n.end(); },
  };
});
