/**
 * One recorded mode of an ADK conformance case as a corpus scenario: a `run` upstream replaying the
 * session golden's events, its expectations read off the mock's own rendering with the recorder's
 * expectation builder (recorder/expect.ts, the corpus's definitions of outcome, frames,
 * completionPoint, finalText and errorFrame), and checked by the corpus linter before it is kept.
 */
import { relative } from 'node:path';
import { render } from '../../mock-adk/core/render.ts';
import type { Scenario } from '../../schemas/types.ts';
import { expectationsOf } from '../expect.ts';
import { lintRecording } from '../lint.ts';
import { mapSession, type Step } from './map-session.ts';
import { field, type AdkCase, type AdkRecordedMode } from './read-case.ts';

export type Dialect = Scenario['dialect'];

export type BuiltScenario = { scenario: Scenario; notes: string[] } | { unsupported: string[] };

const idPattern = /[^a-z0-9]+/g;

/** `tools/Agent-001` + sse -> `tools_agent_001_sse`: [a-z0-9_]+, at most 64 characters, the suffix kept. */
export function scenarioId(category: string, name: string, streaming: boolean): string {
  const clean = (s: string) => s.toLowerCase().replace(idPattern, '_').replace(/^_+|_+$/g, '');
  const suffix = streaming ? '_sse' : '';
  const base = [clean(category), clean(name)].filter((s) => s.length > 0).join('_') || 'case';
  return `${base.slice(0, 64 - suffix.length).replace(/_+$/, '')}${suffix}`;
}

/** A tag from a folder name: [a-z0-9][a-z0-9-]*. */
function tagOf(s: string): string | undefined {
  const t = s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return t.length > 0 ? t : undefined;
}

/**
 * The dialect a golden was recorded with, when the caller did not say: adk-python writes float
 * seconds as timestamps, adk-js integer milliseconds (research adk-wire-format §4).
 */
export function detectDialect(session: Record<string, unknown>): Dialect {
  const events = (field(session, 'events') as unknown[]).filter((e): e is Record<string, unknown> => e !== null && typeof e === 'object');
  const stamps = events.map((e) => field(e, 'timestamp')).filter((t): t is number => typeof t === 'number');
  return stamps.some((t) => t > 1e11) ? 'adk-js' : 'adk-python';
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function buildScenario(adkCase: AdkCase, mode: AdkRecordedMode, options: { id: string; dialect?: Dialect; root: string; outDir: string; schemaFile: string }): BuiltScenario {
  const mapped = mapSession(mode.session, { streaming: mode.streaming, ...(mode.recordings !== undefined ? { recordings: mode.recordings } : {}) });
  const unsupported = [...mapped.unsupported];
  const spec = adkCase.spec;
  if (spec.userMessages.length !== 1) unsupported.push(`spec.yaml sends ${count(spec.userMessages.length, 'user message')}; a scenario replays one request (multi-turn cases are not importable)`);
  const first = spec.userMessages[0];
  if (first && first.text === undefined) unsupported.push('spec.yaml\'s user message is a Content (e.g. a function response for a long-running tool); a scenario request is plain text');
  if (unsupported.length > 0) return { unsupported: [...new Set(unsupported)] };

  const dialect = options.dialect ?? detectDialect(mode.session);
  const message = mapped.userMessage ?? first?.text ?? '';
  const steps: Step[] = mapped.steps;
  const agents = [...new Set(steps.map((s) => s.model?.author ?? s.tools?.author ?? s.modelError?.author).filter((a): a is string => a !== undefined))];
  const calls = steps.flatMap((s) => s.model?.calls ?? []);
  const errorStep = steps.find((s) => s.modelError);
  const streaming = mode.streaming;
  const shownSession = relative(options.root, mode.sessionFile) || mode.sessionFile;
  const caseRef = `${adkCase.category}/${adkCase.name}`;

  const userId = str(field(mode.session, 'user_id')) ?? 'adk_conformance_test_user';
  const sessionId = str(field(mode.session, 'id')) ?? `s-${options.id}`;
  const upstream = {
    kind: 'run' as const,
    ...(mapped.invocationId ? { invocationId: mapped.invocationId } : {}),
    ...(mapped.callIds.length === calls.length && calls.length > 0 ? { ids: { calls: mapped.callIds } } : {}),
    steps,
  };
  const family: Scenario['family'] = errorStep ? 'errors' : mapped.transfers.length > 0 ? 'transfer' : 'streaming';
  const features = [
    calls.length > 0 ? 'tools' : undefined,
    mapped.transfers.length > 0 ? 'transfer' : undefined,
    steps.some((s) => s.model?.stateDelta ?? s.tools?.stateDelta) ? 'state-delta' : undefined,
    errorStep ? 'model-error' : undefined,
  ].filter((t): t is string => t !== undefined);
  const tags = [...new Set(['imported', 'adk-conformance', streaming ? 'streaming' : 'non-streaming', ...[tagOf(adkCase.category)].filter((t): t is string => t !== undefined), ...features])];

  const summary = [
    count(steps.length, 'event'),
    calls.length > 0 ? count(calls.length, 'function call') : undefined,
    ...mapped.transfers.map((t) => `a transfer from ${t.from} to ${t.to}`),
    errorStep?.modelError ? `error ${errorStep.modelError.errorCode}` : undefined,
  ].filter(Boolean).join(', ');
  const notes = mapped.notes;
  const base = {
    $schema: relative(options.outDir, options.schemaFile).split('\\').join('/'),
    id: options.id,
    title: clip(`ADK conformance case ${caseRef} replays ${summary}${streaming ? ', streamed' : ''}`, 150),
    description: `Imported from ADK's conformance suite (case ${caseRef}, ${shownSession}) by adk-conformance import-adk-conformance. `
      + `The upstream replays the ${count(steps.length, 'event')} of the recorded session after the user's message (authors: ${agents.join(', ')}), in the ${dialect} dialect${streaming ? ' with streaming on' : ''}; `
      + 'event ids, timestamps and the usage details are the mock\'s own, as ADK\'s replay check ignores them.'
      + (notes.length > 0 ? ` Not replayed: ${notes.join('; ')}.` : ''),
    family,
    tags,
    specRefs: dialect === 'adk-js'
      ? [{ doc: 'adk-wire-format', section: '§3' }, { doc: 'adk-wire-format', section: '4. Event JSON' }]
      : [{ doc: 'adk-python-facts', section: '1.3' }, { doc: 'adk-wire-format', section: '4. Event JSON' }],
    dialect,
    replays: `the ADK conformance golden ${shownSession} (adk conformance record, ${streaming ? 'streaming_mode sse' : 'streaming_mode none'}) of agent '${spec.agent}', whose spec reads: ${JSON.stringify(spec.description.trim())}. The session's events are replayed as ${dialect} renders them.`,
    session: { userId, sessionId, ...(Object.keys(spec.initialState).length > 0 ? { state: spec.initialState } : {}) },
    request: { message, ...(streaming ? { streaming: true } : {}), ...(first?.stateDelta ? { stateDelta: first.stateDelta } : {}) },
    upstream,
  };

  let plan: ReturnType<typeof render>;
  try {
    plan = render({ ...base, expect: { status: 200, outcome: 'complete' } } as unknown as Scenario, { dialect, streaming, appName: options.id, userId, sessionId });
  } catch (error) {
    return { unsupported: [`the mock's renderer refuses the replayed script: ${(error as Error).message}`] };
  }
  const recorded = expectationsOf(plan.status, plan.frames, plan.end, false);
  const scenario = { ...base, expect: { ...recorded, ...briefingsOf(recorded, steps, mapped.transfers) } } as unknown as Scenario;
  return { scenario, notes };
}

/**
 * The key briefings the session itself fixes, by the mapping's rules (docs/briefing-mapping.md):
 * a transfer is a DELEGATING status of the transferring agent, the final answer an INSIGHT COMPLETE
 * of its author, a model error an ERROR status. Confidence and citations depend on the text's
 * wording, so they are left to the proof-layer checks.
 */
function briefingsOf(expect: ReturnType<typeof expectationsOf>, steps: readonly Step[], transfers: ReadonlyArray<{ from: string }>): { briefings?: Array<Record<string, string>> } {
  const out: Array<Record<string, string>> = transfers.map((t) => ({ type: 'STATUS', state: 'DELEGATING', source_agent: t.from }));
  const last = [...steps].reverse().find((s) => s.model?.text !== undefined || s.modelError);
  if (expect.outcome === 'complete' && expect.finalText !== undefined && last?.model) out.push({ type: 'INSIGHT', state: 'COMPLETE', source_agent: last.model.author });
  if (expect.outcome === 'error' && last?.modelError) out.push({ type: 'STATUS', state: 'ERROR', source_agent: last.modelError.author });
  return out.length > 0 ? { briefings: out } : {};
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Cut at a word boundary: a title stays a readable statement (the schema allows 150 characters). */
function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 4);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))} ...`;
}

/** The corpus linter's verdict on a built scenario (spec references resolve where the seeds are). */
export function lintBuilt(scenario: Scenario, file: string): string[] {
  return lintRecording(scenario, file).map((i) => `${i.path || '/'}: ${i.message} (${i.rule})`);
}
