/**
 * `runConformanceSuite`: one certification inside the caller's process (a team's own vitest run,
 * through `adk-conformance/vitest`), of the same parts and by the same path as `adk-conformance run`:
 * its options become the CLI's target flags, checked by the same parser (a bad value throws the
 * CLI's usage message), and certified by `runCertification`. It returns the RunResult instead of
 * printing it; reports are written only where `outDir` says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Part, RunResult } from './model.ts';
import { loadScenarios } from '../scenarios/loader.ts';
import { runCertification } from './certify.ts';
import { parseTargetSpec, targetFlags, type TargetFlags } from './targets/spec.ts';

type Form = 'url' | 'command' | 'module';

/**
 * Each option that names a part: the part, and the `run` flag each form of it becomes. Every part
 * `run` certifies is here (suite.test.ts compares with harness/parts.ts).
 */
export const suiteParts = {
  gateway: { part: 'gateway', flags: { url: 'gateway', command: 'gateway-cmd' } },
  transformer: { part: 'transformer', flags: { command: 'transformer-cmd', module: 'transformer-module' } },
  normalizer: { part: 'normalizer', flags: { command: 'normalizer-cmd', module: 'normalizer-module' } },
  client: { part: 'client', flags: { command: 'client-cmd', module: 'client-module' } },
  auditBridge: { part: 'audit-bridge', flags: { command: 'audit-bridge-cmd', module: 'audit-bridge-module' } },
  proofStream: { part: 'proof-stream', flags: { module: 'proof-stream-module' } },
  proxy: { part: 'proxy', flags: { url: 'proxy', command: 'proxy-cmd' } },
  adkServer: { part: 'adk-server', flags: { module: 'adk-server-module' } },
} as const satisfies Record<string, { part: Part; flags: Partial<Record<Form, keyof TargetFlags>> }>;

type SuitePart = keyof typeof suiteParts;
/** `{ url }`, `{ command }` or `{ module }`, as far as the part has that form. */
type PartTarget<P extends SuitePart> = { [F in keyof (typeof suiteParts)[P]['flags'] & Form]: { [K in F]: string } }[keyof (typeof suiteParts)[P]['flags'] & Form];

export type SuiteOptions = { [P in SuitePart]?: PartTarget<P> } & {
  /** Requirement ids/tags or scenario ids/tags/families or probe ids (like --grep). */
  grep?: string[];
  seed?: number;
  scenariosDir?: string;
  /** Bound for one scenario (default 30000, like --timeout-ms). */
  scenarioTimeoutMs?: number;
  level?: 'must' | 'should' | 'may';
  /** Port for the mock (default: free; 8080 with a gateway URL, which must point its upstream there). */
  mockPort?: number;
  jwtSecret?: string;
  /** How long a started implementation may take to show it is ready (like --startup-timeout, in ms). */
  startupTimeoutMs?: number;
  /** Write report.json, junit.xml, report.md and report.html here (default: no reports). */
  outDir?: string;
  /** Receives each console line `run` would print (default: none). */
  log?: (line: string) => void;
};

/** The `run` flags the options name; a part given in a form it lacks throws, naming the forms it has. */
export function suiteTargetFlags(options: SuiteOptions): TargetFlags {
  const flags: TargetFlags = {};
  for (const [name, info] of Object.entries(suiteParts) as Array<[SuitePart, (typeof suiteParts)[SuitePart]]>) {
    const given = options[name] as Partial<Record<Form, unknown>> | undefined;
    if (given === undefined) continue;
    const forms = Object.keys(info.flags) as Form[];
    const chosen = typeof given === 'object' && given !== null ? (Object.keys(given) as Form[]).filter((k) => forms.includes(k)) : [];
    if (chosen.length !== 1 || Object.keys(given).length !== 1 || typeof given[chosen[0] as Form] !== 'string') {
      throw new TypeError(`runConformanceSuite: ${name} takes ${forms.map((f) => `{ ${f}: string }`).join(' or ')} (the ${info.part} part, like ${forms.map((f) => `--${(info.flags as Partial<Record<Form, string>>)[f]}`).join(' or ')}), got ${JSON.stringify(given)}`);
    }
    const form = chosen[0] as Form;
    flags[(info.flags as Partial<Record<Form, keyof TargetFlags>>)[form] as keyof TargetFlags] = given[form] as string;
  }
  if (options.mockPort !== undefined) flags['mock-port'] = String(options.mockPort);
  if (options.jwtSecret !== undefined) flags['jwt-secret'] = options.jwtSecret;
  if (options.startupTimeoutMs !== undefined) flags['startup-timeout'] = String(options.startupTimeoutMs / 1000);
  return flags;
}

/** One certification run inside the caller's process: what `adk-conformance run` does, returning the RunResult. */
export async function runConformanceSuite(options: SuiteOptions = {}): Promise<RunResult> {
  const { errors } = loadScenarios(options.scenariosDir);
  if (errors.length > 0) throw new Error(`runConformanceSuite: ${errors.length} scenario file(s) do not load; fix them first: ${errors.slice(0, 3).map((e) => `${e.file}: ${e.path}: ${e.message}`).join('; ')}`);
  const flags = suiteTargetFlags(options);
  const target = parseTargetSpec(flags);
  const replayFlags = targetFlags(flags);
  // runCertification always writes its reporters' files: with none chosen, into a folder removed after.
  const scratch = options.outDir === undefined ? mkdtempSync(join(tmpdir(), 'adk-suite-')) : undefined;
  try {
    return await runCertification({
      target,
      level: options.level ?? 'must',
      seed: options.seed ?? 1,
      grep: options.grep ?? [],
      outDir: options.outDir ?? (scratch as string),
      reporters: options.outDir === undefined ? [] : ['json', 'junit', 'md', 'html'],
      ...(options.scenariosDir !== undefined ? { scenariosDir: options.scenariosDir } : {}),
      scenarioTimeoutMs: options.scenarioTimeoutMs ?? 30_000,
      replayBase: `npx adk-conformance run${replayFlags ? ` ${replayFlags}` : ''}`,
      log: options.log ?? (() => {}),
    });
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}
