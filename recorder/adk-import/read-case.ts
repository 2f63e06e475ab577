/**
 * Reads ADK's own conformance test cases (`adk conformance record` / `adk conformance test`):
 * folders `<category>/<case>/` holding a hand-written `spec.yaml` and the generated goldens,
 * `generated-session.yaml` + `generated-recordings.yaml` (non-streaming) and
 * `generated-session-sse.yaml` + `generated-recordings-sse.yaml` (SSE).
 *
 * Format sources (read, not copied):
 * - adk-python src/google/adk/cli/conformance/cli_test.py @40f1df0fe853023002c653d8da2209457b81134d:
 *   cases are found by `rglob("spec.yaml")`; category = the case folder's parent name, name = the
 *   case folder's name; the file names per streaming mode.
 * - adk-python src/google/adk/cli/conformance/test_case.py (as vendored in tencentyun/serverless-demo
 *   @dc6aeb8f1dd804293c3c0702a7393738840b2113): TestSpec {description, agent, initial_state,
 *   user_messages: [UserMessage {text | content, state_delta}]}, `extra="forbid"`. The first release
 *   (zhangp365/adk-python @402f3626b3298025a20651cf37b5028b1b947305) had `user_messages: list[str]`;
 *   both are read.
 * - adk-python cli_record.py @bf41efd599b6ef1633926b662db1cd8cdb77869d: the session golden is
 *   `dump_pydantic_to_yaml(session)`, a pydantic `model_dump(mode='json', exclude_none,
 *   exclude_defaults)`, so keys are snake_case field names and defaults are absent.
 * - adk-js dev/src/conformance/yaml_test_loader.ts @25c4591fc197f5d6cb1f95ce54f197ed2d05a15f reads the
 *   same three files (camel-casing the keys after loading); its writer keeps snake_case.
 *
 * Problems become values naming the file, what is wrong and how to fix it; they never hide the
 * good cases next to them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import yaml from 'js-yaml';

export type AdkUserMessage = { text?: string; content?: unknown; stateDelta?: Record<string, unknown> };
export type AdkSpec = { description: string; agent: string; initialState: Record<string, unknown>; userMessages: AdkUserMessage[] };

/** One recorded mode of a case: the session golden and, when present, the recordings golden. */
export type AdkRecordedMode = { streaming: boolean; sessionFile: string; session: Record<string, unknown>; recordingsFile?: string; recordings?: unknown };

export type AdkCase = { category: string; name: string; dir: string; specFile: string; spec: AdkSpec; modes: AdkRecordedMode[] };

/** A case that cannot be read at all: which file, what is wrong, how to fix it. */
export type CaseReadError = { caseDir: string; file: string; message: string };

export const modeFiles = [
  { streaming: false, session: 'generated-session.yaml', recordings: 'generated-recordings.yaml' },
  { streaming: true, session: 'generated-session-sse.yaml', recordings: 'generated-recordings-sse.yaml' },
] as const;

const specKeys = ['description', 'agent', 'initial_state', 'user_messages'];

/**
 * Every case folder under `root`: folders with a spec.yaml, and folders with generated goldens but
 * no spec.yaml (reported, not skipped in silence: a half-copied case is a mistake to fix).
 */
export function discoverCases(root: string): string[] {
  const dir = resolve(root);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new Error(`${dir} is not a folder. Pass the folder holding ADK's conformance cases (tests/<category>/<case>/spec.yaml), e.g. the 'tests' folder 'adk conformance record' wrote into.`);
  }
  const found: string[] = [];
  const walk = (d: string): void => {
    const names = readdirSync(d).sort();
    const golden = names.some((n) => modeFiles.some((m) => n === m.session || n === m.recordings));
    if (names.includes('spec.yaml') || golden) found.push(d);
    for (const n of names) {
      if (n.startsWith('.') || n === 'node_modules') continue;
      const child = join(d, n);
      if (statSync(child).isDirectory()) walk(child);
    }
  };
  walk(dir);
  return found;
}

/** Category and name as ADK derives them: the case folder's parent name and its own name. */
export function caseNames(caseDir: string): { category: string; name: string } {
  return { category: basename(dirname(caseDir)), name: basename(caseDir) };
}

function loadYaml(file: string, root: string): { value: unknown } | { error: CaseReadError } {
  const shown = relative(root, file) || file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { error: { caseDir: dirname(file), file, message: `${shown} cannot be read: ${(error as Error).message}. Check the file's permissions.` } };
  }
  try {
    return { value: yaml.load(text, { filename: shown }) };
  } catch (error) {
    const e = error as { mark?: { line?: number; column?: number }; reason?: string; message: string };
    const at = e.mark?.line !== undefined ? `line ${e.mark.line + 1}, column ${(e.mark.column ?? 0) + 1}` : 'somewhere';
    return { error: { caseDir: dirname(file), file, message: `${shown} is not valid YAML (${at}: ${e.reason ?? e.message}). Fix the YAML there, or regenerate the file with 'adk conformance record'.` } };
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** snake_case as ADK writes it, camelCase as adk-js' loader turns it: either is read. */
export function field(record: Record<string, unknown>, snake: string): unknown {
  if (snake in record) return record[snake];
  return record[snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
}

function parseSpec(value: unknown, shown: string): AdkSpec | string {
  const fix = 'ADK\'s TestSpec is {description: str, agent: str, initial_state?: map, user_messages: [{text: str} | {content: Content}, each with an optional state_delta]}';
  if (!isRecord(value)) return `${shown} is not a YAML mapping; ${fix}.`;
  const unknown = Object.keys(value).filter((k) => !specKeys.includes(k) && !specKeys.includes(k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  if (unknown.length > 0) return `${shown} has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (ADK's TestSpec forbids extra keys); remove ${unknown.length > 1 ? 'them' : 'it'}. ${fix}.`;
  const description = field(value, 'description');
  const agent = field(value, 'agent');
  if (typeof description !== 'string') return `${shown}: 'description' is missing or not a string; add a one-line description. ${fix}.`;
  if (typeof agent !== 'string' || agent.length === 0) return `${shown}: 'agent' is missing or not a string; name the agent folder the case runs. ${fix}.`;
  const initial = field(value, 'initial_state') ?? {};
  if (!isRecord(initial)) return `${shown}: 'initial_state' must be a mapping of state keys; ${fix}.`;
  const raw = field(value, 'user_messages') ?? [];
  if (!Array.isArray(raw)) return `${shown}: 'user_messages' must be a list; ${fix}.`;
  const userMessages: AdkUserMessage[] = [];
  for (const [i, m] of raw.entries()) {
    // The first release wrote plain strings; later releases write UserMessage mappings.
    if (typeof m === 'string') { userMessages.push({ text: m }); continue; }
    if (!isRecord(m)) return `${shown}: user_messages[${i}] is neither a string nor a mapping; ${fix}.`;
    const text = field(m, 'text');
    const content = field(m, 'content');
    const stateDelta = field(m, 'state_delta');
    if ((text === undefined || text === null) === (content === undefined || content === null)) return `${shown}: user_messages[${i}] needs exactly one of text and content; ${fix}.`;
    if (text !== undefined && text !== null && typeof text !== 'string') return `${shown}: user_messages[${i}].text must be a string.`;
    if (stateDelta !== undefined && stateDelta !== null && !isRecord(stateDelta)) return `${shown}: user_messages[${i}].state_delta must be a mapping.`;
    userMessages.push({
      ...(typeof text === 'string' ? { text } : { content }),
      ...(isRecord(stateDelta) ? { stateDelta } : {}),
    });
  }
  return { description, agent, initialState: initial, userMessages };
}

/** Read one case folder: its spec and every recorded mode, or the reason it cannot be read. */
export function readCase(caseDir: string, root: string): { case: AdkCase } | { error: CaseReadError } {
  const { category, name } = caseNames(caseDir);
  const specFile = join(caseDir, 'spec.yaml');
  const shown = (f: string) => relative(root, f) || f;
  if (!existsSync(specFile)) {
    return { error: { caseDir, file: specFile, message: `${shown(specFile)} is missing: the folder has ADK goldens but no spec. Copy the case's spec.yaml next to them (ADK finds cases by their spec.yaml), or remove the folder.` } };
  }
  const specYaml = loadYaml(specFile, root);
  if ('error' in specYaml) return specYaml;
  const spec = parseSpec(specYaml.value, shown(specFile));
  if (typeof spec === 'string') return { error: { caseDir, file: specFile, message: spec } };

  const modes: AdkRecordedMode[] = [];
  for (const m of modeFiles) {
    const sessionFile = join(caseDir, m.session);
    if (!existsSync(sessionFile)) continue;
    const session = loadYaml(sessionFile, root);
    if ('error' in session) return session;
    if (!isRecord(session.value) || !Array.isArray(field(session.value, 'events'))) {
      return { error: { caseDir, file: sessionFile, message: `${shown(sessionFile)} is not an ADK session (a mapping with an 'events' list). Regenerate it with 'adk conformance record${m.streaming ? ' --streaming_mode sse' : ''}'.` } };
    }
    const recordingsFile = join(caseDir, m.recordings);
    let recordings: unknown;
    if (existsSync(recordingsFile)) {
      const loaded = loadYaml(recordingsFile, root);
      if ('error' in loaded) return loaded;
      recordings = loaded.value;
    }
    modes.push({ streaming: m.streaming, sessionFile, session: session.value, ...(recordings !== undefined ? { recordingsFile, recordings } : {}) });
  }
  return { case: { category, name, dir: caseDir, specFile, spec, modes } };
}
