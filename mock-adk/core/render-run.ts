/**
 * Renders a run script (`upstream.kind: "run"`) into the exact `/run_sse` response of one dialect.
 * This module walks the steps and owns what is common to every server: ids and time from the
 * seed, waits, the one-chunk-per-frame framing (`data: ` + JSON + `\n\n`, research §3), the audit
 * bridge of the enhanced endpoint. The dialect decides which events a step becomes and their bytes.
 */
import { encodeAdkFrame } from '../../core/sse.ts';
import type { Scenario } from '../../schemas/types.ts';
import { adkPython } from './dialects/adk-python.ts';
import { getDialect } from './dialects/index.ts';
import { scenarioDialects } from './scenario-dialects.ts';
import type { EmittedEvent, ModelStepInput, Pace, ResolvedCall, RunUpstreamInput, StepInput, TurnEnv, TurnOutput } from './dialects/spec.ts';
import { prepareTurn } from './dialects/turn.ts';
import { createAuditInjector, DONE_DATA } from './enhanced.ts';
import { frameOf, framesOfBytes, utf8 } from './frames.ts';
import { createIdStreams, createScriptClock, uuid4 } from './ids.ts';
import type { PlanChunk, RenderContext, RenderedFrame, ReplayPlan } from './types.ts';

/** The schema's default first-event time (epoch ms). */
const DEFAULT_START_MS = 1795318500000;

/** Script-clock jitter per pace, in ms: an LLM call's latency, a streamed chunk's gap, a tool's run. */
const JITTER: Record<Pace, [number, number]> = { llm: [350, 1400], chunk: [15, 90], tool: [4, 60] };

const STEP_KINDS = ['model', 'tools', 'modelError', 'errorFrame', 'raw', 'silence'] as const;
type StepKind = (typeof STEP_KINDS)[number];

function stepKind(step: StepInput, index: number): StepKind {
  if (step === null || typeof step !== 'object' || Array.isArray(step)) throw new TypeError(`upstream.steps[${index}] must be an object such as {"model": {...}}`);
  const kinds = STEP_KINDS.filter((k) => k in step);
  if (kinds.length !== 1) {
    throw new TypeError(`upstream.steps[${index}] must have exactly one of ${STEP_KINDS.join(', ')} (plus an optional audit); it has ${kinds.length === 0 ? 'none' : kinds.join(' and ')}`);
  }
  return kinds[0]!;
}

export function decodeBase64(text: string, where: string): Uint8Array {
  let binary: string;
  try { binary = atob(text); } catch {
    throw new TypeError(`${where}.base64 is not valid base64`);
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function rawBytes(step: { text?: string; base64?: string }, where: string): Uint8Array {
  if ((step.text === undefined) === (step.base64 === undefined)) {
    throw new TypeError(`${where} needs exactly one of text or base64`);
  }
  return step.text !== undefined ? utf8(step.text) : decodeBase64(step.base64!, where);
}

export function renderRun(scenario: Scenario, ctx: RenderContext): ReplayPlan {
  const up = scenario.upstream as unknown as RunUpstreamInput;
  if (!Array.isArray(up.steps)) throw new TypeError(`scenario ${scenario.id}: upstream.steps must be an array of steps`);
  const allowed: string[] = scenarioDialects(scenario);
  if (!allowed.includes(ctx.dialect)) {
    throw new TypeError(`scenario ${scenario.id} is pinned to ${allowed[0]} (${(scenario as { pinned?: string }).pinned ?? 'captured bytes'}); it is not rendered in ${ctx.dialect}`);
  }
  const dialect = getDialect(ctx.dialect);
  const streams = createIdStreams(ctx.seed ?? `${scenario.id}:${ctx.sessionId}`);
  const clock = createScriptClock(up.startTime ?? DEFAULT_START_MS, streams.clock);
  const invocationId = up.invocationId ?? `e-${uuid4(streams.invocation)}`;
  const pinnedEvents = [...(up.ids?.events ?? [])];
  const pinnedCalls = [...(up.ids?.calls ?? [])];
  const pinnedTimes = [...(up.ids?.timestamps ?? [])];

  const env: TurnEnv = {
    invocationId,
    streaming: ctx.streaming,
    stamp(waitMs, pace) {
      const [min, max] = JITTER[pace];
      const micros = clock.advance(waitMs, min, max);
      const id = pinnedEvents.shift() ?? dialect.newEventId(streams.events);
      const pinnedTimestamp = pinnedTimes.shift();
      return pinnedTimestamp === undefined ? { id, micros } : { id, micros, pinnedTimestamp };
    },
  };
  const callId = (pinned: string | undefined): string => pinned ?? pinnedCalls.shift() ?? `adk-${uuid4(streams.calls)}`;

  const audit = ctx.enhanced === true ? createAuditInjector(invocationId) : undefined;
  const chunks: PlanChunk[] = [];
  const frames: RenderedFrame[] = [];
  let pendingWaitMs = 0;

  function write(bytes: Uint8Array, waitMs: number, newFrames: RenderedFrame[]): void {
    chunks.push({ bytes, delayMs: pendingWaitMs + waitMs, frame: newFrames.length > 0 ? frames.length : -1 });
    frames.push(...newFrames);
    pendingWaitMs = 0;
  }

  function emit(events: EmittedEvent[]): void {
    for (const e of events) {
      const json = audit ? audit.inject(e.json) : e.json;
      const data = dialect.stringify(json);
      const parsed: unknown = JSON.parse(data);
      write(utf8(encodeAdkFrame(data)), e.waitMs, [{ data, kind: 'event', json: parsed }]);
      audit?.observe(parsed);
    }
  }

  let llmCalls = 0;
  // The calls of the last model step, until a tools step answers them.
  let unanswered: { calls: ResolvedCall[]; stepIndex: number } | undefined;
  let afterTools: TurnOutput['afterTools'];
  const flushAfterTools = (): void => {
    if (afterTools) emit(afterTools(env));
    afterTools = undefined;
  };
  // §5e: after a transfer, the coordinator's trailing report comes only once the sub-agent's whole
  // run is over (adk-js runs the sub-agent inside the coordinator's step, its own tool rounds
  // included), that is before the next model turn of another agent, or at the end.
  let afterTransfer: { report: NonNullable<TurnOutput['afterTools']>; to: string } | undefined;
  const flushAfterTransfer = (): void => {
    if (afterTransfer) emit(afterTransfer.report(env));
    afterTransfer = undefined;
  };

  // The agent that handed the run to a sub-agent: where the dialect does not run it again, its
  // next step means the run is already over (that step and every later one are never reached).
  let transferredFrom: string | undefined;
  let over = false;
  const noReinvocation = dialect.reinvokesAfterTransfer?.(ctx.streaming) === false;

  up.steps.forEach((step, i) => {
    const kind = stepKind(step, i);
    const where = `upstream.steps[${i}].${kind}`;
    if (!over && noReinvocation && transferredFrom !== undefined && (kind === 'model' || kind === 'modelError')) {
      const author = (step as { model?: { author?: unknown }; modelError?: { author?: unknown } })[kind as 'model' | 'modelError']?.author;
      if (author === transferredFrom) over = true;
    }
    if (over) return;
    if (audit && step.audit) audit.record(step.audit);
    switch (kind) {
      case 'model': {
        // A new LLM call: the previous call's trailing report (adk-js) was already due.
        flushAfterTools();
        const turn = prepareTurn((step as { model: ModelStepInput }).model, { stepIndex: i, llmCallIndex: llmCalls++, callId });
        if (afterTransfer && turn.author !== afterTransfer.to) flushAfterTransfer();
        const out = dialect.modelTurn(turn, env);
        emit(out.events);
        unanswered = turn.calls.length > 0 ? { calls: turn.calls, stepIndex: i } : undefined;
        afterTools = turn.truncate ? undefined : out.afterTools;
        break;
      }
      case 'tools': {
        const tools = (step as { tools: Parameters<typeof dialect.toolsEvent>[0] }).tools;
        if (!Array.isArray(tools?.responses)) throw new TypeError(`${where}.responses must be an array of {name, response}`);
        if (!unanswered) throw new TypeError(`${where} answers no calls: put it right after a model step with calls`);
        if (tools.responses.length > unanswered.calls.length) {
          throw new TypeError(`${where} has ${tools.responses.length} responses but steps[${unanswered.stepIndex}] made ${unanswered.calls.length} calls`);
        }
        tools.responses.forEach((r, j) => {
          const call = unanswered!.calls[j]!;
          if (r.name !== call.name) throw new TypeError(`${where}.responses[${j}] is named ${r.name}, but call ${j} of steps[${unanswered!.stepIndex}] is ${call.name}; responses follow call order`);
        });
        emit(dialect.toolsEvent(tools, unanswered.calls, env));
        if (tools.transferToAgent !== undefined) transferredFrom = tools.author;
        unanswered = undefined;
        if (tools.transferToAgent !== undefined && afterTools) {
          afterTransfer = { report: afterTools, to: tools.transferToAgent };
          afterTools = undefined;
        } else flushAfterTools();
        break;
      }
      case 'modelError': {
        // The error ends this LLM call: no trailing usage report follows it. A coordinator's report
        // owed from a transfer still comes: the error event ends the sub-agent's run normally.
        afterTools = undefined;
        unanswered = undefined;
        emit(dialect.modelErrorEvent((step as { modelError: Parameters<typeof dialect.modelErrorEvent>[0] }).modelError, env));
        break;
      }
      case 'errorFrame': {
        // The error line is the server's last word: no report is written after it.
        afterTools = undefined;
        afterTransfer = undefined;
        const ef = (step as { errorFrame: Parameters<typeof dialect.errorFrameData>[0] }).errorFrame;
        const waitMs = ef.delayMs ?? 0;
        const seconds = clock.advance(waitMs, ...JITTER.tool) / 1e6;
        // The Python styles are other server generations' bytes: they win over the dialect.
        const own = (ef.style ?? 'dialect') === 'dialect';
        const data = own ? dialect.errorFrameData(ef, seconds) : adkPython.errorFrameData(ef, seconds);
        // adk-go names its error frame (`event: error`, then the data line), one write for both.
        const name = own ? dialect.errorFrameEvent : undefined;
        const frame = frameOf(data, name);
        write(utf8(`${name !== undefined ? `event: ${name}\n` : ''}${encodeAdkFrame(data)}`), waitMs, [{ ...frame, kind: 'error' }]);
        break;
      }
      case 'raw': {
        const raw = (step as { raw: { text?: string; base64?: string; delayMs?: number } }).raw;
        const bytes = rawBytes(raw, where);
        write(bytes, raw.delayMs ?? 0, framesOfBytes(bytes));
        break;
      }
      case 'silence': {
        const ms = (step as { silence: { ms: number } }).silence.ms;
        if (typeof ms !== 'number' || !(ms >= 0)) throw new TypeError(`${where}.ms must be a number >= 0`);
        pendingWaitMs += ms;
        break;
      }
    }
  });
  flushAfterTools();
  flushAfterTransfer();
  if (audit) write(utf8(encodeAdkFrame(DONE_DATA)), 0, [frameOf(DONE_DATA)]);
  // A trailing silence is a wait before the end (EOF, reset or hold-open).
  if (pendingWaitMs > 0) chunks.push({ bytes: new Uint8Array(0), delayMs: pendingWaitMs, frame: -1 });

  return { status: 200, headers: dialect.sseHeaders(), chunks, end: up.end ?? 'eof', frames };
}
