/**
 * `npm start`: the main job. Certifies the reference implementation (gateway, transformer,
 * normaliser, audit bridge) on the embedded mock, prints the verdict and where the reports are.
 */
import { parseOptions } from '../args.ts';
import { runCertification } from '../../harness/certify.ts';
import { parseRunOptions } from './run.ts';
import { exitCodeOf } from '../../harness/verdict.ts';

const help = `usage: adk-conformance start [--seed N|random] [--out DIR]

Certify the reference implementation on the embedded mock and write the four reports
(default reports/latest/). The same as 'adk-conformance run' with no target.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { seed: { type: 'string' }, out: { type: 'string' } }, help);
  if (values.help) { process.stdout.write(help + '\n'); return 0; }
  const options = parseRunOptions({ seed: values.seed, out: values.out, level: 'may' }, {});
  const result = await runCertification(options);
  return exitCodeOf(result);
}
