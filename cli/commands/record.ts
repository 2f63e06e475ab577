/**
 * `adk-conformance record`: run one message on a real ADK server (or anything speaking its API)
 * and write a scenario that replays the run exactly: every frame's bytes, the inter-frame timing,
 * the status and the response headers, with the dialect detected from the events. Secrets never
 * land in the file (docs/recording.md). Exit 0 when the file was written and lints clean, 1 when
 * it was written but the linter found issues, 2 on a usage or upstream error.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import { nearest, parseOptions, UsageError } from '../args.ts';
import { lintRecording } from '../../recorder/lint.ts';
import { recordRun } from '../../recorder/record.ts';
import { UpstreamError } from '../../recorder/http-capture.ts';
import { processLineIo } from '../io.ts';

const families = ['delegation', 'transfer', 'audit', 'streaming', 'errors', 'missing-done', 'index-reuse', 'framing'] as const;

const help = `usage: adk-conformance record --upstream URL --app APP --message TEXT --out scenarios/NAME.json [options]

Create a session on the upstream ADK server, run one message, and write a scenario that the mock
replays byte for byte (docs/recording.md).

  --upstream URL     the ADK API server, e.g. http://127.0.0.1:8000
  --app APP          the agent (appName) to run
  --user U           userId (default u1)
  --session S        session id to create (default: the server chooses)
  --message TEXT     the user message
  --streaming        token streaming (streaming: true)
  --enhanced         POST /run_sse_enhanced instead of /run_sse
  --header 'N: V'    a request header (repeatable), e.g. Authorization; sent, never recorded
  --normalize-ids    rewrite event/call/invocation ids and timestamps to deterministic values
  --redact REGEX     also replace matches of REGEX with [REDACTED] (repeatable; added to the defaults)
  --out FILE         where to write the scenario; its name (without .json) is the scenario id
  --force            overwrite FILE if it exists
  --title TEXT       the scenario title (default: a statement generated from the run)
  --family F         the scenario family (default: errors, transfer or streaming from the run)
  --idle-ms N        stop after N ms without a byte and record the end as hold-open (default 120000)
  --max-ms N         stop after N ms in all (default 900000)`;

export type RecordIo = { out: (line: string) => void; err: (line: string) => void };

export async function run(argv: string[], io: RecordIo = processLineIo()): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    upstream: { type: 'string' }, app: { type: 'string' }, user: { type: 'string' }, session: { type: 'string' },
    message: { type: 'string' }, streaming: { type: 'boolean' }, enhanced: { type: 'boolean' },
    header: { type: 'string', multiple: true }, 'normalize-ids': { type: 'boolean' }, redact: { type: 'string', multiple: true },
    out: { type: 'string' }, force: { type: 'boolean' }, title: { type: 'string' }, family: { type: 'string' },
    'idle-ms': { type: 'string' }, 'max-ms': { type: 'string' },
  }, help);
  if (values.help) { io.out(help); return 0; }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'.\n\n${help}`);
  for (const name of ['upstream', 'app', 'message', 'out'] as const) {
    if (values[name] === undefined || values[name] === '') throw new UsageError(`--${name} is required.\n\n${help}`);
  }
  const out = resolve(values.out!);
  if (!out.endsWith('.json')) throw new UsageError(`--out ${values.out} must name a .json file (scenarios/<id>.json).`);
  const id = basename(out, '.json');
  if (!/^[a-z0-9_]+$/.test(id) || id.length > 64) throw new UsageError(`--out ${values.out}: the file name '${id}' is the scenario id and must match [a-z0-9_]+ (at most 64 characters), e.g. scenarios/my_agent_run.json.`);
  if (existsSync(out) && !values.force) throw new UsageError(`--out ${values.out} exists; pass --force to overwrite it or choose another name.`);
  const family = values.family;
  if (family !== undefined && !(families as readonly string[]).includes(family)) {
    const near = nearest(family, families);
    throw new UsageError(`--family ${family} is not a family${near ? ` (did you mean '${near}'?)` : ''}; families: ${families.join(', ')}.`);
  }
  const headers = (values.header ?? []).map(parseHeader);
  const idleMs = positiveInt(values['idle-ms'], 120_000, '--idle-ms');
  const maxMs = positiveInt(values['max-ms'], 900_000, '--max-ms');

  let recording: Awaited<ReturnType<typeof recordRun>>;
  try {
    recording = await recordRun({
      base: values.upstream!, headers, idleMs, maxMs,
      app: values.app!, user: values.user ?? 'u1', ...(values.session !== undefined ? { session: values.session } : {}),
      message: values.message!, streaming: values.streaming === true, endpoint: values.enhanced ? '/run_sse_enhanced' : '/run_sse',
      id, normalizeIds: values['normalize-ids'] === true, redact: values.redact ?? [],
    });
  } catch (error) {
    if (error instanceof UpstreamError || error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
  const scenario = recording.scenario as unknown as Record<string, unknown>;
  if (values.title !== undefined) scenario['title'] = values.title;
  if (family !== undefined) scenario['family'] = family;

  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(scenario, null, 2)}\n`);
  const shown = relative(process.cwd(), out) || out;
  const expect = recording.scenario.expect;
  io.out(`recorded ${shown}: ${recording.dialect.dialect} (${recording.dialect.summary}), HTTP ${expect.status}, ${expect.frames ?? 0} frames, outcome ${expect.outcome}`);
  const redacted = Object.entries(recording.redacted).map(([rule, n]) => `${rule} x${n}`);
  io.out(`secrets: request headers are never recorded${recording.droppedHeaders.length ? `; dropped response headers ${recording.droppedHeaders.join(', ')}` : ''}; ${redacted.length ? `redacted ${redacted.join(', ')}` : 'no redaction pattern matched'}`);
  const issues = lintRecording(scenario, out);
  for (const issue of issues) io.err(`${shown}: ${issue.path || '/'}: ${issue.message} (${issue.rule})`);
  if (issues.length > 0) { io.err(`record: the recording was written but has ${issues.length} lint issue${issues.length === 1 ? '' : 's'}`); return 1; }
  io.out(`replay it: adk-conformance mock --scenarios ${relative(process.cwd(), dirname(out)) || '.'}  (app name ${id})`);
  return 0;
}

function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon > 0 ? text.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header '${text}' is not 'Name: value' (e.g. --header 'Authorization: Bearer ...').`);
  return [name, text.slice(colon + 1).trim()];
}

function positiveInt(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer (milliseconds), got '${text}'.`);
  return n;
}

function defaultIo(): RecordIo {
  return { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };
}
