/**
 * `tap --save-failing [DIR]`: where failing runs are saved. Without DIR, a folder of the user's
 * own, ./adk-conformance-scenarios/ (issue 31 §4: the README's `scenarios/regressions` wrote into
 * the kit's own corpus). A DIR inside the kit's corpus folder is refused: the kit's scenarios are
 * its specification, and runs saved there would be read as part of it.
 */
import { relative, resolve, sep } from 'node:path';
import { UsageError } from '../core/errors.ts';
import { defaultScenariosDir } from '../scenarios/loader.ts';

export const defaultSaveDir = 'adk-conformance-scenarios';

/** `--save-failing` given without a value (last, or followed by another option) takes the default folder. */
export function withDefaultSaveDir(argv: readonly string[]): string[] {
  const out = [...argv];
  for (let i = 0; i < out.length; i++) {
    if (out[i] !== '--save-failing') continue;
    const next = out[i + 1];
    if (next === undefined || next.startsWith('-')) out.splice(i + 1, 0, defaultSaveDir);
  }
  return out;
}

export function checkSaveDir(dir: string, corpus = defaultScenariosDir): string {
  const abs = resolve(dir);
  const kit = resolve(corpus);
  if (abs === kit || abs.startsWith(kit + sep)) {
    throw new UsageError(`--save-failing ${dir} is inside the kit's own scenario corpus (${relative(process.cwd(), kit) || kit}): saved runs would be read as the kit's specification. Save them to a folder of yours: --save-failing alone uses ./${defaultSaveDir}/.`);
  }
  return abs;
}
