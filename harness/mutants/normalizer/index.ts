/**
 * Normaliser mutants: each breaks one rule of seed 003 §3.1 and names exactly the requirements
 * the harness reports as failed for it (proven by harness/mutants/normalizer.mutants.test.ts).
 * Module mutants export createBlockNormalizer; the command mutant runs the kit's own stdio filter
 * through a shell pipe, as a team's command would be given with --normalizer-cmd.
 */
import { fileURLToPath } from 'node:url';
import type { Mutant } from '../types.ts';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const bin = fileURLToPath(new URL('../../../bin/adk-conformance.js', import.meta.url));
const quote = (s: string) => (/^[\w./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

const moduleMutant = (id: string, file: string, description: string, kills: string[]): Mutant => ({
  id, part: 'normalizer', description, kills, target: { normalizer: { module: here(file) } },
});

export const normalizerMutants: Mutant[] = [
  moduleMutant('normalizer-reuses-index', './reuses-index.ts', 'block indices restart at 0 in every LLM message, so later blocks reuse earlier indices', ['BLK-IDX-001']),
  moduleMutant('normalizer-stop-carries-llm-index', './stop-carries-llm-index.ts', 'content_block_stop carries the LLM\'s own index instead of its block\'s', ['BLK-IDX-002']),
  moduleMutant('normalizer-forgets-tool-result-index', './forgets-tool-result-index.ts', 'tool results and tool errors carry the last started block\'s index instead of their tool_use\'s', ['BLK-IDX-003']),
  moduleMutant('normalizer-guesses-unknown-index', './guesses-unknown-index.ts', 'a delta for an unknown index is attached to the last started block instead of being refused', ['BLK-IDX-004']),
  moduleMutant('normalizer-passes-llm-indices', './passes-llm-indices.ts', 'every event keeps the LLM\'s own index and deltas for unknown indices pass through', ['BLK-IDX-001', 'BLK-IDX-004']),
  moduleMutant('normalizer-tool-input-unparsed', './tool-input-unparsed.ts', 'tool_use_input_complete carries the joined input_json_delta fragments as a string instead of the JSON they form', ['BLK-OUT-001']),
  moduleMutant('normalizer-forgets-open-blocks', './forgets-open-blocks.ts', 'a turn that ends with blocks still open gives no block_not_stopped error for them', ['BLK-OUT-001']),
  moduleMutant('normalizer-buffers-until-end', './buffers-until-end.ts', 'every event is held back until the input ends, then written at once', ['BLK-FLOW-003']),
  moduleMutant('normalizer-stamps-index-free-events', './stamps-index-free-events.ts', 'index-free events (message_start, message_delta, llm_call_completed, ping, stream_end) carry a block index', ['BLK-FLOW-004', 'BLK-FLOW-002']),
  {
    id: 'normalizer-drops-stream-end',
    part: 'normalizer',
    description: 'the stdio filter never writes stream_end, so the turn has no visible end',
    kills: ['BLK-FLOW-002'],
    target: { normalizer: { command: `node ${quote(bin)} normalize | grep --line-buffered -v '"event_type":"stream_end"'` } },
  },
];
