/**
 * `node --cpu-prof --cpu-prof-dir reports/bench/profiles --import tsx bench/profile-in-process.ts transformer|normalizer [seconds] [streaming]`:
 * the in-process pass of a part alone in a loop, so its profile shows nothing but that part.
 */
import { performance } from 'node:perf_hooks';
import { cedarCreekId, cedarCreekStreamingId } from './lib/bench-scenarios.ts';
import { runFrames, turnEvents } from './lib/pipeline-inputs.ts';
import { normalizePass } from './normalizer.ts';
import { transformPass } from './transformer.ts';

const which = process.argv[2];
const workload = process.argv[4] === 'streaming' ? cedarCreekStreamingId : cedarCreekId;
const seconds = Number(process.argv[3] ?? 4);
if ((which !== 'transformer' && which !== 'normalizer') || !(seconds > 0)) {
  process.stderr.write('usage: node --cpu-prof --import tsx bench/profile-in-process.ts transformer|normalizer [seconds] [streaming]\n');
  process.exit(2);
}
const pass = which === 'transformer' ? transformPass(runFrames(workload)) : normalizePass(turnEvents('index_reuse_turn').map((e) => JSON.stringify(e)));
const end = performance.now() + seconds * 1000;
let events = 0;
while (performance.now() < end) events += pass();
process.stdout.write(`${which}: ${Math.round(events / seconds)} events/s while profiled\n`);
