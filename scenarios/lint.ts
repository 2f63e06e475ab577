/**
 * The corpus linter, after JSON-Schema-Test-Suite's `jsonschema_suite check`: every file is
 * schema-valid, ids are unique and match their file, descriptions are statements, every spec
 * reference resolves to a real section, and each scenario's script and expectations agree with
 * each other and with what the renderer produces.
 *
 * The renderer and the fault catalogue live in mock-adk/, which may import scenarios/ but not the
 * other way round, so they come in through `LintOptions` (the CLI and the tests pass them).
 */
import { resolve } from 'node:path';
import { validate } from '../schemas/registry.ts';
import type { Scenario } from '../schemas/types.ts';
import { createSpecDocs, specRefProblems } from './spec-refs.ts';
import { defaultScenariosDir, escapePointer, idFromFile, loadScenarios, refineIssues, scenarioSchemaIssues } from './loader.ts';

export type LintRule =
  | 'json-syntax'
  | 'schema-valid'
  | 'id-unique'
  | 'id-matches-file'
  | 'statement-style'
  | 'spec-ref-resolves'
  | 'shared-docs-missing'
  | 'fault-known'
  | 'variant-of-exists'
  | 'chunks-join-text'
  | 'tools-follow-calls'
  | 'tool-results-match'
  | 'audit-valid'
  | 'renders'
  | 'pinned-captured'
  | 'expect-frames'
  | 'completion-point'
  | 'expect-final-text'
  | 'expect-error-frame'
  | 'outcome-consistent';

export type LintIssue = { file: string; path: string; rule: LintRule; message: string };

/** The slice of mock-adk's ReplayPlan the linter reads (declared here: scenarios/ does not import mock-adk/). */
export type RenderedPlan = { frames: Array<{ data: string; kind: string; json?: unknown }> };

/** The render context of mock-adk/core/types.ts. */
export type LintRenderContext = {
  dialect: Scenario['dialect'];
  streaming: boolean;
  appName: string;
  userId: string;
  sessionId: string;
  seed?: string;
  enhanced?: boolean;
};

export type LintOptions<P extends RenderedPlan = RenderedPlan> = {
  /** Where seeds/ and research/ live (default: `<repo>/../shared`). */
  sharedDir?: string;
  /** The renderer (mock-adk/core/render.ts); without it the frame-count rules are skipped. */
  render?: (scenario: Scenario, ctx: LintRenderContext) => P;
  /** Applied after `render` when the scenario has faults (mock-adk/core/faults.ts). */
  applyFaults?: (plan: P, faults: NonNullable<Scenario['faults']>) => P;
  /** One `/v1/messages` stream of an anthropic-turn scenario (mock-adk/core/anthropic.ts). */
  renderAnthropicCall?: (scenario: Scenario, callIndex: number) => RenderedPlan;
  /** Known fault names (mock-adk/core/faults.ts); without them the fault rule is skipped. */
  faultNames?: readonly string[];
  /** The dialects a scenario renders in (mock-adk/core/scenario-dialects.ts), its own first; each must render. */
  dialectsOf?: (scenario: Scenario) => readonly string[];
};

export const repoRoot = resolve(defaultScenariosDir, '..');
export const defaultSharedDir = resolve(repoRoot, '..', 'shared');

/**
 * Lint scenarios; `files[i]` is the file `scenarios[i]` came from. Values may be anything (a test
 * may build a broken one): a schema-invalid scenario gets its schema issues and nothing else.
 */
export function lintScenarios<P extends RenderedPlan>(scenarios: readonly unknown[], files: readonly string[], options: LintOptions<P> = {}): LintIssue[] {
  if (scenarios.length !== files.length) throw new TypeError(`lintScenarios: got ${scenarios.length} scenarios but ${files.length} file names; pass one file per scenario, in the same order.`);
  const issues: LintIssue[] = [];
  const docs = createSpecDocs(options.sharedDir ?? defaultSharedDir);
  if (docs.missing) issues.push({ file: docs.sharedDir, path: '', rule: 'shared-docs-missing', message: `${docs.missing}; spec references were not resolved (the other rules ran). Put the seeds and research notes in ${docs.sharedDir} or pass sharedDir.` });

  const valid: Array<{ scenario: Scenario; file: string }> = [];
  scenarios.forEach((value, i) => {
    const file = files[i] ?? '';
    const schemaIssues = scenarioSchemaIssues(value);
    if (schemaIssues.length > 0) {
      for (const issue of schemaIssues) issues.push({ file, path: issue.path, rule: 'schema-valid', message: issue.message });
    } else {
      valid.push({ scenario: value as Scenario, file });
    }
  });

  const ids = new Map<string, string[]>();
  for (const { scenario, file } of valid) ids.set(scenario.id, [...(ids.get(scenario.id) ?? []), file]);
  const knownIds = new Set(ids.keys());

  for (const { scenario, file } of valid) {
    const add = (path: string, rule: LintRule, message: string) => issues.push({ file, path, rule, message });
    const sameId = ids.get(scenario.id) ?? [];
    if (sameId.length > 1) add('/id', 'id-unique', `id '${scenario.id}' is used by ${sameId.length} files: ${sameId.join(', ')}`);
    if (file && idFromFile(file) !== scenario.id) add('/id', 'id-matches-file', `id '${scenario.id}' differs from the file name '${idFromFile(file)}.json'; rename one so they match`);
    checkStatements(scenario, add);
    if (!docs.missing) for (const [path, message] of specRefProblems(scenario.specRefs, docs)) add(path, 'spec-ref-resolves', message);
    if (options.faultNames) checkFaults(scenario, options.faultNames, add);
    if (scenario.variantOf !== undefined && !knownIds.has(scenario.variantOf)) add('/variantOf', 'variant-of-exists', `variantOf names '${scenario.variantOf}', which is not a scenario of this corpus`);
    if (scenario.variantOf === scenario.id) add('/variantOf', 'variant-of-exists', 'a scenario cannot be a variant of itself');
    checkScript(scenario, add);
    checkPinned(scenario, add);
    checkExpectations(scenario, options, add);
  }
  return issues;
}

/**
 * A run renders in every dialect unless it carries one server's captured bytes: timestamps in that
 * server's unit, or raw events as that server wrote them. Those must say so with `pinned`, and a
 * run with neither has nothing to pin.
 */
function checkPinned(scenario: Scenario, add: Add): void {
  if (scenario.upstream.kind !== 'run') {
    if (scenario.pinned !== undefined) add('/pinned', 'pinned-captured', `only a run script is pinned; a ${scenario.upstream.kind} script is fixed to its dialect by nature: remove "pinned"`);
    return;
  }
  const up = scenario.upstream;
  const captured: string[] = [];
  if ((up.ids?.timestamps ?? []).length > 0) captured.push('upstream.ids.timestamps (in one server\'s unit)');
  up.steps.forEach((step, i) => {
    const raw = (step as { raw?: { text?: string } }).raw;
    if (raw?.text !== undefined && /"author"\s*:/.test(raw.text)) captured.push(`steps[${i}].raw (an event as one server writes it)`);
  });
  if (captured.length > 0 && scenario.pinned === undefined) add('/pinned', 'pinned-captured', `this run carries captured bytes: ${captured.join(', ')}; it cannot render in every dialect: add "pinned": "<why>" (e.g. "seed 001's captured ${scenario.dialect} run")`);
}

type Add = (path: string, rule: LintRule, message: string) => void;

/** JSON-Schema-Test-Suite's description style: "X frobs", never "X should frob" or "test that X frobs". */
function checkStatements(scenario: Scenario, add: Add): void {
  const texts: Array<[string, string | undefined]> = [['/title', scenario.title], ['/description', scenario.description]];
  for (const [path, text] of texts) {
    if (text === undefined) continue;
    if (/\bshould\b/i.test(text)) add(path, 'statement-style', `say what happens ("X emits Y"), not what should happen: remove "should" from ${path.slice(1)}`);
    if (/\btests? that\b/i.test(text)) add(path, 'statement-style', `state the behaviour ("X emits Y"), not "test that": rewrite ${path.slice(1)}`);
  }
}

function checkFaults(scenario: Scenario, known: readonly string[], add: Add): void {
  (scenario.faults ?? []).forEach((fault, i) => {
    if (!known.includes(fault.name)) add(`/faults/${i}/name`, 'fault-known', `unknown fault '${fault.name}'; known faults: ${known.join(', ')}`);
  });
}

// ---------------------------------------------------------------------------------------------
// The script agrees with itself

type Step = Extract<Scenario['upstream'], { kind: 'run' }>['steps'][number];

function checkScript(scenario: Scenario, add: Add): void {
  const upstream = scenario.upstream;
  if (upstream.kind === 'run') {
    let previous: Step | undefined;
    upstream.steps.forEach((step, i) => {
      const path = `/upstream/steps/${i}`;
      if (step.model?.chunks !== undefined) {
        const joined = step.model.chunks.join('');
        if (step.model.text === undefined) add(`${path}/model/chunks`, 'chunks-join-text', 'chunks are given but the step has no text for them to split');
        else if (joined !== step.model.text) add(`${path}/model/chunks`, 'chunks-join-text', `the chunks join to ${JSON.stringify(clip(joined))}, not the step's text ${JSON.stringify(clip(step.model.text))}`);
      }
      if (step.tools) {
        const calls = previous?.model?.calls;
        if (!calls || calls.length === 0) {
          add(`${path}/tools`, 'tools-follow-calls', 'a tools step answers the calls of the step before it, which must be a model step with calls');
        } else {
          const responses = step.tools.responses;
          if (responses.length !== calls.length) add(`${path}/tools/responses`, 'tools-follow-calls', `${responses.length} responses for ${calls.length} calls; give one response per call, in call order`);
          responses.forEach((response, j) => {
            const call = calls[j];
            if (call && call.name !== response.name) add(`${path}/tools/responses/${j}/name`, 'tools-follow-calls', `response ${j} is named '${response.name}' but call ${j} is '${call.name}'`);
          });
        }
      }
      (step.audit ?? []).forEach((event, j) => checkAuditEvent(event, upstream.invocationId, `${path}/audit/${j}`, add));
      // Silences do not change what the next tools step answers.
      if (!step.silence) previous = step;
    });
  }
  if (upstream.kind === 'anthropic-turn') {
    upstream.messages.forEach((message, i) => {
      const ids = new Set(message.blocks.filter((b) => b.type === 'tool_use').map((b) => b.id));
      (message.toolResults ?? []).forEach((result, j) => {
        if (!ids.has(result.toolUseId)) add(`/upstream/messages/${i}/toolResults/${j}/toolUseId`, 'tool-results-match', `tool result for '${result.toolUseId}', which no tool_use block of message ${i} has as its id`);
      });
    });
  }
}

/**
 * An audit event is recorded in the bridge under its invocation (seed 000 §2.1 "Key: invocationId"),
 * so it must be a valid audit event and name the run's pinned invocation id, or it is never found.
 */
function checkAuditEvent(event: unknown, invocationId: string | undefined, path: string, add: Add): void {
  // No payload: seed 000 §2.2A's dataclasses written flat (the form §2.2C and §9 show), not §3.2's envelope.
  const flat = typeof event === 'object' && event !== null && !('payload' in event);
  const result = validate(flat ? 'audit-event#/definitions/dataclassEvent' : 'audit-event', event);
  for (const issue of refineIssues(result.errors, event)) add(`${path}${issue.path}`, 'audit-valid', `${issue.message} (schemas/audit-event.schema.json${flat ? ', dataclassEvent' : ''})`);
  const record = event as { correlation_id?: unknown; invocation_id?: unknown };
  const key = record.invocation_id ?? record.correlation_id;
  if (invocationId === undefined) add(path, 'audit-valid', 'audit events need upstream.invocationId pinned, so their correlation_id can name the run\'s invocation');
  else if (key !== invocationId) add(`${path}/${record.invocation_id !== undefined ? 'invocation_id' : 'correlation_id'}`, 'audit-valid', `the audit event names invocation ${JSON.stringify(key)}, not the run's ${invocationId}; the bridge would file it under another invocation`);
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

// ---------------------------------------------------------------------------------------------
// The expectations agree with the script and the renderer

function checkExpectations<P extends RenderedPlan>(scenario: Scenario, options: LintOptions<P>, add: Add): void {
  const { expect, upstream } = scenario;
  const httpError = upstream.kind === 'http' && upstream.status >= 400;
  if ((expect.outcome === 'http-error') !== httpError) {
    add('/expect/outcome', 'outcome-consistent', httpError ? `upstream answers HTTP ${upstream.kind === 'http' ? upstream.status : ''}; the outcome is 'http-error'` : `outcome 'http-error' needs an upstream of kind 'http' with status >= 400`);
  }
  if (upstream.kind === 'http' && expect.status !== upstream.status) add('/expect/status', 'outcome-consistent', `expect.status ${expect.status} differs from the upstream's ${upstream.status}`);
  const end = upstream.kind === 'run' || upstream.kind === 'bytes' ? upstream.end ?? 'eof' : undefined;
  const heldOpen = end === 'hold-open' || (scenario.faults ?? []).some((f) => f.name === 'hold-open');
  if (expect.outcome === 'hold-open' && !heldOpen) add('/expect/outcome', 'outcome-consistent', "outcome 'hold-open' needs upstream.end 'hold-open' (or the hold-open fault)");
  if (expect.outcome === 'cut' && expect.completionPoint !== undefined && expect.completionPoint !== null) add('/expect/completionPoint', 'outcome-consistent', "a cut run never completes: completionPoint is null");

  if (expect.finalText !== undefined && upstream.kind === 'run') {
    const texts = upstream.steps.flatMap((s) => (s.model?.text !== undefined && !s.model.truncate ? [s.model.text] : []));
    const last = texts[texts.length - 1];
    if (last !== expect.finalText) add('/expect/finalText', 'expect-final-text', last === undefined ? 'finalText is set but no model step has a complete text' : `finalText differs from the last model text ${JSON.stringify(clip(last))}`);
  }

  const frames = renderedFrames(scenario, options, add);
  if (frames === undefined) {
    if (typeof expect.completionPoint === 'number' && expect.frames !== undefined && expect.completionPoint >= expect.frames) add('/expect/completionPoint', 'completion-point', `completionPoint ${expect.completionPoint} is not below the frame count ${expect.frames}`);
    return;
  }
  if (expect.frames !== undefined && expect.frames !== frames.length) add('/expect/frames', 'expect-frames', `expect.frames is ${expect.frames} but the renderer produces ${frames.length} frames (${scenario.dialect}, streaming ${scenario.request.streaming === true})`);
  if (typeof expect.completionPoint === 'number' && expect.completionPoint >= frames.length) add('/expect/completionPoint', 'completion-point', `completionPoint ${expect.completionPoint} is not below the ${frames.length} rendered frames`);
  if (expect.errorFrame !== undefined) checkErrorFrame(expect.errorFrame as Record<string, unknown>, frames, add);
}

/** The frames of the default rendering, or undefined when no renderer was given or applies. */
function renderedFrames<P extends RenderedPlan>(scenario: Scenario, options: LintOptions<P>, add: Add): RenderedPlan['frames'] | undefined {
  try {
    if (scenario.upstream.kind === 'anthropic-turn') {
      if (!options.renderAnthropicCall) return undefined;
      const render = options.renderAnthropicCall;
      return scenario.upstream.messages.flatMap((_, i) => render(scenario, i).frames);
    }
    if (!options.render) return undefined;
    // Every dialect it renders in must render, in both streaming modes; only its own one is counted.
    for (const dialect of (options.dialectsOf?.(scenario) ?? []).slice(1)) {
      for (const streaming of [false, true]) {
        try {
          options.render(scenario, { ...defaultRenderContext(scenario), dialect, streaming } as LintRenderContext);
        } catch (error) {
          add('/upstream', 'renders', `the renderer fails on this run in ${dialect}${streaming ? ' (streaming)' : ''}: ${(error as Error).message}; fix the step, or pin the scenario to ${scenario.dialect} with "pinned": "<why>" if it carries that server's captured bytes`);
        }
      }
    }
    let plan = options.render(scenario, defaultRenderContext(scenario));
    if (scenario.faults && scenario.faults.length > 0 && options.applyFaults) plan = options.applyFaults(plan, scenario.faults);
    return plan.frames;
  } catch (error) {
    add('/upstream', 'renders', `the renderer fails on this scenario: ${(error as Error).message}`);
    return undefined;
  }
}

/** The context a plain request for this scenario renders with: its own dialect, streaming mode and session. */
export function defaultRenderContext(scenario: Scenario): LintRenderContext {
  return {
    dialect: scenario.dialect,
    streaming: scenario.request.streaming === true,
    appName: scenario.id,
    userId: scenario.session.userId,
    sessionId: scenario.session.sessionId,
    enhanced: scenario.request.endpoint === '/run_sse_enhanced',
  };
}

function checkErrorFrame(expected: Record<string, unknown>, frames: RenderedPlan['frames'], add: Add): void {
  const last = frames[frames.length - 1];
  if (!last) { add('/expect/errorFrame', 'expect-error-frame', 'errorFrame is set but the rendering has no frames'); return; }
  if ('raw' in expected && Object.keys(expected).length === 1) {
    if (last.data !== expected['raw']) add('/expect/errorFrame/raw', 'expect-error-frame', `the last frame's data is ${JSON.stringify(clip(last.data))}, not the expected raw text`);
    return;
  }
  const mismatch = subsetMismatch(expected, last.json, '');
  if (mismatch !== undefined) add(`/expect/errorFrame${mismatch}`, 'expect-error-frame', `the last rendered frame does not contain the expected errorFrame at '${mismatch || '/'}' (it is ${JSON.stringify(clip(last.data))})`);
}

/** The first pointer where `actual` does not contain `expected` (objects: subset; the rest: equal). */
function subsetMismatch(expected: unknown, actual: unknown, path: string): string | undefined {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return path;
    for (const [key, value] of Object.entries(expected)) {
      const miss = subsetMismatch(value, (actual as Record<string, unknown>)[key], `${path}/${escapePointer(key)}`);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  return JSON.stringify(expected) === JSON.stringify(actual) ? undefined : path;
}

/** Load a folder and lint it: load errors (syntax, schema) come first, as issues of their own. */
export function lintCorpus<P extends RenderedPlan>(dir: string = defaultScenariosDir, options: LintOptions<P> = {}): { issues: LintIssue[]; scenarios: Scenario[]; files: string[]; fileCount: number } {
  const loaded = loadScenarios(dir);
  const loadIssues: LintIssue[] = loaded.errors.map((e) => ({ file: e.file, path: e.path, rule: e.kind === 'schema' ? 'schema-valid' : 'json-syntax', message: e.message }));
  const fileCount = new Set([...loaded.files, ...loaded.errors.map((e) => e.file)]).size;
  return { issues: [...loadIssues, ...lintScenarios(loaded.scenarios, loaded.files, options)], scenarios: loaded.scenarios, files: loaded.files, fileCount };
}
