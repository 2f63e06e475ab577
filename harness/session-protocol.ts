/**
 * The session protocol's lines (docs/session-protocol.md), in the spirit of Bowtie's harness
 * protocol: one long-lived process per implementation, JSON lines on stdio. Only the codec lives
 * here (platform-free); harness/session.ts runs the processes.
 *
 * Harness -> implementation (stdin):
 *   {"cmd":"start","protocol":1,"part":P}                      once, first
 *   {"cmd":"open","run":R,"env":{...}}                          a run begins, with its one-shot environment
 *   {"cmd":"input","run":R,"text":T} | {"cmd":"input","run":R,"bytes":B64}   one one-shot stdin line (or raw bytes)
 *   {"cmd":"end","run":R}                                       the one-shot form's stdin EOF
 *   {"cmd":"cancel","run":R}                                    the harness gave up on the run: forget it
 *   {"cmd":"stop"}                                              exit
 * Implementation -> harness (stdout):
 *   {"cmd":"ready","protocol":1,"implementation":{name,version,language,parts,dialects?,spec?}}
 *   {"run":R,"line":T}                                          one line the one-shot form would write
 *   {"run":R,"exit":N}                                          the one-shot form's exit: the run's end marker
 */

export const sessionProtocolVersion = 1;

/** The environment variable that asks a command for the session form (it then writes `ready` first). */
export const sessionEnvVar = 'ADK_CONFORMANCE_PROTOCOL';

export type Implementation = {
  name: string;
  version: string;
  language: string;
  parts: string[];
  dialects?: string[];
  spec?: string[];
};

export type HarnessMessage =
  | { cmd: 'start'; protocol: number; part: string }
  | { cmd: 'open'; run: string; env: Record<string, string> }
  | { cmd: 'input'; run: string; text: string }
  | { cmd: 'input'; run: string; bytes: string }
  | { cmd: 'end'; run: string }
  | { cmd: 'cancel'; run: string }
  | { cmd: 'stop' };

export type ImplementationMessage =
  | { kind: 'ready'; protocol: number; implementation: Implementation }
  | { kind: 'line'; run: string; text: string }
  | { kind: 'exit'; run: string; code: number }
  /** A line that is none of the above: the protocol's violation, with why. */
  | { kind: 'invalid'; text: string; why: string };

export function encode(message: HarnessMessage): string {
  return `${JSON.stringify(message)}\n`;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

function implementationOf(v: unknown): Implementation | string {
  if (!isRecord(v)) return '"implementation" is not an object';
  for (const key of ['name', 'version', 'language'] as const) {
    if (typeof v[key] !== 'string' || v[key] === '') return `"implementation.${key}" is not a non-empty string`;
  }
  if (!strings(v['parts']) || v['parts'].length === 0) return '"implementation.parts" is not a non-empty array of strings';
  for (const key of ['dialects', 'spec'] as const) if (v[key] !== undefined && !strings(v[key])) return `"implementation.${key}" is not an array of strings`;
  return {
    name: v['name'] as string, version: v['version'] as string, language: v['language'] as string, parts: v['parts'],
    ...(v['dialects'] !== undefined ? { dialects: v['dialects'] as string[] } : {}),
    ...(v['spec'] !== undefined ? { spec: v['spec'] as string[] } : {}),
  };
}

/** One stdout line of a session process, read. Never throws: a bad line is `invalid` with the reason. */
export function parseLine(text: string): ImplementationMessage {
  let value: unknown;
  try { value = JSON.parse(text); } catch { return { kind: 'invalid', text, why: 'not JSON' }; }
  if (!isRecord(value)) return { kind: 'invalid', text, why: 'not a JSON object' };
  if (value['cmd'] === 'ready') {
    if (value['protocol'] !== sessionProtocolVersion) return { kind: 'invalid', text, why: `"protocol" is ${JSON.stringify(value['protocol'])}, this harness speaks ${sessionProtocolVersion}` };
    const impl = implementationOf(value['implementation']);
    if (typeof impl === 'string') return { kind: 'invalid', text, why: impl };
    return { kind: 'ready', protocol: sessionProtocolVersion, implementation: impl };
  }
  const run = value['run'];
  if (typeof run !== 'string' || run === '') return { kind: 'invalid', text, why: 'no "run" id (a string)' };
  if (typeof value['line'] === 'string') return { kind: 'line', run, text: value['line'] };
  if (typeof value['exit'] === 'number' && Number.isInteger(value['exit'])) return { kind: 'exit', run, code: value['exit'] };
  return { kind: 'invalid', text, why: 'neither a "line" string nor an integer "exit"' };
}
