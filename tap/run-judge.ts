/**
 * `createRunJudge(config)`: one run's judging, fed the way the bytes pass (request body, response
 * head, each body chunk, the end) and called only after the shell forwarded them. It holds at most
 * one event (bounded by limits.maxFrameBytes), the completion state and the findings it keeps
 * (bounded by limits.maxFindingsPerRun); every judging step runs in its own try/catch, so a judge
 * that throws is a `judge-error` finding and never a lost byte.
 */
import { classifyData } from '../reference-impl/transformer/frames.ts';
import { isMetadataOnly } from '../reference-impl/transformer/adk-event.ts';
import { createCompletionDetector } from '../reference-impl/completion.ts';
import type { SseFrame, SseIssue } from '../core/sse.ts';
import { finding } from '../harness/checks/gateway/types.ts';
import type { CheckOutcome, Finding } from '../harness/model.ts';
import { createBoundedReader, type BoundedReader } from './bounded-reader.ts';
import { upstreamFailure } from './upstream-failure.ts';
import { eventDialect, frameAt, headerDialect, judgeErrorLine, judgeEvent } from './judge-adk.ts';
import { afterTerminal, doneAdded, errorAfterAnswer, gatewayFrameRequirement, gluedGatewayFrame, judgeGatewayFrame, judgeHeaders, judgeRequest } from './judge-gateway.ts';
import type { Judge, JudgeContext, RunEnding, StreamDialect, TapFrame, TapLimits, TapRun, TapRunSummary, UpstreamRole } from './types.ts';

export type RunJudgeConfig = {
  run: TapRun;
  role: UpstreamRole;
  limits: TapLimits;
  /** Extra judges (plugins, and the tests' throwing judge). */
  judges?: readonly Judge[];
  onFrame: (frame: TapFrame, findings: Finding[]) => void;
  onFindings: (findings: Finding[]) => void;
};

export type RunJudge = {
  requestBody: (body: Uint8Array, truncated: boolean) => void;
  responseHead: (status: number, headers: ReadonlyArray<readonly [string, string]>) => void;
  chunk: (bytes: Uint8Array) => void;
  end: (ending: RunEnding, error?: string) => TapRunSummary;
};

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const runPaths = new Set(['/run_sse', '/run_sse_enhanced']);
const noFindings: Finding[] = Object.freeze([]) as unknown as Finding[];

export function createRunJudge(config: RunJudgeConfig): RunJudge {
  const { run, role, limits } = config;
  const started = performance.now();
  const judged = new Map<string, Finding[]>();
  let kept = 0;
  let dropped = 0;
  let bytes = 0;
  let streaming = false;
  let reader: BoundedReader | undefined;
  let hint: StreamDialect = 'unknown';
  let streamDialect: StreamDialect | undefined;
  let requestInvalid: boolean | undefined;
  let requestText: string | undefined;
  let errorLine: TapFrame | undefined;
  let gatewayTerminal: TapFrame | undefined;
  let endsRun = false;
  let eventExercised = false;
  /** The last event ended the run or was some agent's final answer: EOF after it is a complete run. */
  let answered = false;
  /** The root agent's final answer when it is the last event (metadata-only events after it aside). */
  let finalAnswer: number | undefined;
  let holdTimer: ReturnType<typeof setTimeout> | undefined;
  let heldOpenReported = false;
  let ended = false;
  const onceCodes = new Set<string>();
  const counts: JudgeContext['counts'] = { event: 0, 'error-line': 0, 'gateway-error': 0, done: 0, invalid: 0 };
  /**
   * The last frame, for judges only (JudgeContext.last): the run itself keeps the last frame's
   * index and the start of its data, not its parsed JSON, so an open run holds no event's object
   * graph between frames.
   */
  let last: TapFrame | undefined;
  let lastIndex = -1;
  let lastStart = '';
  const completion = createCompletionDetector({ graceMs: limits.holdOpenMs, idleMs: Math.max(limits.holdOpenMs, 10_000) });

  const exercise = (...ids: string[]) => { for (const id of ids) if (!judged.has(id)) judged.set(id, []); };
  function keep(list: Finding[]): Finding[] {
    // Most frames have no finding: one shared, frozen empty list for them (observers only read it).
    if (list.length === 0) return noFindings;
    const shown: Finding[] = [];
    for (const f of list) {
      const mine = judged.get(f.requirement) ?? [];
      judged.set(f.requirement, mine);
      // The first finding of each requirement is always kept, so a requirement never fails without one.
      if (mine.length > 0 && kept >= limits.maxFindingsPerRun) { dropped++; continue; }
      const withScenario = { ...f, scenario: run.name };
      mine.push(withScenario);
      kept++;
      shown.push(withScenario);
    }
    return shown;
  }
  /** Framing facts repeat on every event of a bad stream: the first of each kind per run is enough. */
  const once = (f: Finding): Finding[] => {
    const key = `${f.requirement} ${f.code}`;
    if (onceCodes.has(key)) return [];
    onceCodes.add(key);
    return [f];
  };
  /** A judge that threw: a finding of the kit's own fault, never a lost byte. */
  function judgeError(name: string, requirement: string, error: unknown): Finding {
    exercise(requirement);
    return finding(requirement, 'judge-error', run.name, `the tap's ${name} judge threw (${(error as Error).message ?? String(error)}); the bytes were forwarded unchanged and this part of the run was not judged. This is a fault of the kit, not of the upstream: please report it`, 'a judgement', 'judge error');
  }
  function safely(name: string, requirement: string, fn: () => Finding[]): Finding[] {
    try {
      return fn();
    } catch (error) {
      return [judgeError(name, requirement, error)];
    }
  }
  const report = (list: Finding[]) => { if (list.length === 0) return; const shown = keep(list); if (shown.length > 0) config.onFindings(shown); };
  const outcomeFindings = (outcomes: CheckOutcome[]): Finding[] => {
    for (const o of outcomes) if (o.status !== 'untested') exercise(o.requirement);
    return outcomes.flatMap((o) => o.findings);
  };

  function judgeServedInvalid(): void {
    if (role !== 'gateway' || requestInvalid !== true || run.response?.status === undefined) return;
    exercise('GW-REQ-001');
    const status = run.response.status;
    if (status < 400 || status >= 500) report([finding('GW-REQ-001', 'invalid-body-served', 'status', `the request body is not a valid RunAgentRequest (see CLI-REQ-003), yet the gateway answered HTTP ${status} instead of a 4xx naming the field`, '4xx', status)]);
  }

  function requestBody(body: Uint8Array, truncated: boolean): void {
    const path = run.url.split('?')[0] ?? '';
    if (run.kind !== 'run' || path !== '/run_sse') return;
    if (truncated) { report(once(finding('CLI-REQ-003', 'body-over-limit', 'request.body', `the request body is over the tap's ${limits.maxRequestBytes}-byte judging limit; it was forwarded whole but not judged`, `at most ${limits.maxRequestBytes} bytes`, `${body.length}+ bytes`))); return; }
    requestText = Buffer.from(body).toString('utf8');
    const found = safely('request', 'CLI-REQ-003', () => outcomeFindings(judgeRequest(run, requestText ?? '')));
    requestInvalid = found.some((f) => f.requirement === 'CLI-REQ-003' && (f.code === 'body-schema' || f.code === 'body-not-json'));
    report(found);
    judgeServedInvalid();
  }

  function responseHead(status: number, headers: ReadonlyArray<readonly [string, string]>): void {
    run.response = { status, headers };
    exercise('ADK-HTTP-001');
    hint = headerDialect(headers);
    run.dialect = hint;
    if (run.kind !== 'run' || status !== 200) return;
    const found: Finding[] = [];
    exercise('ADK-SSE-001', 'ADK-SSE-002', 'ADK-END-001');
    const types = headers.filter(([n]) => n.toLowerCase() === 'content-type').map(([, v]) => v);
    const essence = (types[0] ?? '').split(';')[0]?.trim().toLowerCase();
    if (essence !== 'text/event-stream') {
      found.push(finding('ADK-SSE-001', 'not-event-stream', 'header:content-type', `POST ${run.url} answered 200 with ${types.length === 0 ? 'no Content-Type' : `Content-Type ${types.join(', ')}`}, not an event stream; the body is forwarded but not read as SSE`, 'text/event-stream', types[0] ?? null));
    } else {
      streaming = true;
      reader = createBoundedReader({
        maxFrameBytes: limits.maxFrameBytes,
        onFrame: (frame) => onSseFrame(frame),
        onIssue: (issue) => report(issueFindings(issue)),
        onComment: (comment) => report(once(finding('ADK-SSE-002', 'comment', `byte ${bytes}`, 'the stream carries a comment line (`:`); ADK servers write none (no heartbeats)', 'no comment', comment.slice(0, 80)))),
        onRetry: (ms) => report(once(finding('ADK-SSE-002', 'retry-field', `byte ${bytes}`, 'the stream carries a retry field; ADK servers write none', 'no retry field', ms))),
        onOversize: (offset) => report([finding('ADK-SSE-001', 'frame-over-limit', `byte ${offset}`, `an event grew past the tap's judging limit of ${limits.maxFrameBytes} bytes (--max-frame-bytes); its bytes were forwarded unchanged but it was not parsed or judged, and the tap skips to its blank line`, `at most ${limits.maxFrameBytes} bytes per event`, `more than ${limits.maxFrameBytes} bytes`)]),
        onByteFact: (fact, offset) => report(once(fact === 'bom'
          ? finding('ADK-SSE-002', 'bom', 'byte 0', 'the stream starts with a UTF-8 byte order mark; ADK servers write none (a client strips one, a naive one breaks)', 'no BOM', 'EF BB BF')
          : finding('ADK-SSE-002', 'cr-line-end', `byte ${offset}`, 'the stream uses a CR line end; ADK servers end lines with LF only', 'LF', 'CR'))),
      });
    }
    if (role === 'gateway') found.push(...safely('headers', 'GW-HDR-001', () => outcomeFindings(judgeHeaders(run))));
    report(found);
    judgeServedInvalid();
  }

  function issueFindings(issue: SseIssue): Finding[] {
    if (issue.kind === 'invalid-utf8') return once(finding('ADK-SSE-001', 'invalid-utf8', `byte ${bytes}`, `the stream is not valid UTF-8 (${issue.message}); a client decodes U+FFFD in its place`, 'UTF-8', 'invalid byte sequence'));
    if (issue.kind === 'unterminated-event') return [finding('ADK-SSE-001', 'unterminated-event', `byte ${bytes}`, `${issue.message}: every ADK event ends with a blank line`, '\\n\\n after the last event', issue.data.slice(0, 120))];
    return once(finding('ADK-SSE-002', 'field-not-adk', `byte ${bytes}`, `the stream has a line that is not an ADK data line: ${issue.message}`, 'data: lines only', issue.line?.slice(0, 80) ?? null));
  }

  function onSseFrame(sse: SseFrame): void {
    const classified = classifyData(sse.data);
    const json = 'error' in classified ? classified.error : 'event' in classified ? classified.event : undefined;
    const gatewayShaped = classified.kind === 'error' && isRecord(json) && (Object.hasOwn(json, 'error_code') || Object.hasOwn(json, 'status_code'));
    const kind: TapFrame['kind'] = classified.kind === 'event' ? 'event' : classified.kind === 'error' ? (gatewayShaped ? 'gateway-error' : 'error-line') : classified.kind === 'done' ? 'done' : 'invalid';
    // One literal with every key, one shape for every frame: a spread of the SSE frame plus an
    // optional key was the most expensive line of the tap's judging (17-19% of its self time).
    const frame: TapFrame = { data: sse.data, event: sse.event, id: sse.id, offset: sse.offset, index: counts.event + counts['error-line'] + counts['gateway-error'] + counts.done + counts.invalid, kind, json };
    // try/catch in place rather than safely(): a closure per frame is garbage the tap makes per event.
    let found: Finding[];
    try { found = judgeFrame(frame, classified.kind === 'error' && classified.legacy === true); } catch (error) { found = [judgeError('frame', 'ADK-EVT-001', error)]; }
    if (config.judges !== undefined) for (const judge of config.judges) if (judge.frame) found.push(...safely(judge.name, judge.requirement, () => judge.frame?.({ run, role, counts, last }, frame) ?? []));
    counts[kind]++;
    if (config.judges !== undefined && config.judges.length > 0) last = frame;
    lastIndex = frame.index;
    lastStart = frame.data.length > 120 ? frame.data.slice(0, 120) : frame.data;
    config.onFrame(frame, keep(found));
    try { track(frame, classified); } catch (error) { report([judgeError('completion', 'ADK-END-002', error)]); }
  }

  function judgeFrame(frame: TapFrame, legacy: boolean): Finding[] {
    const out: Finding[] = [];
    // `event: error` on an error line is adk-go's signature (flashErrorEvent): a stream whose
    // headers and earlier events named no server is adk-go's (an error before the first event).
    if (frame.kind === 'error-line' && frame.event === 'error' && streamDialect === undefined && hint === 'unknown') {
      streamDialect = 'adk-go';
      run.dialect = 'adk-go';
    }
    if (frame.id !== undefined) out.push(...once(finding('ADK-SSE-002', 'id-field', frameAt(frame.index), 'the event has an id field; ADK servers write none', 'no id field', frame.id)));
    if (frame.event !== undefined && !(frame.kind === 'error-line' && (streamDialect ?? hint) === 'adk-go')) out.push(...once(finding('ADK-SSE-002', 'event-field', frameAt(frame.index), `the event has 'event: ${frame.event}'; ADK servers write data lines only (adk-go only names its error line)`, 'no event field', frame.event)));
    if (frame.data.includes('\n')) out.push(...once(finding('ADK-SSE-002', 'multi-line-data', frameAt(frame.index), 'the event has more than one data line; ADK servers write each event\'s JSON on one line', 'one data line', frame.data.slice(0, 120))));
    if (errorLine && (streamDialect ?? hint) !== 'adk-go') out.push(finding('ADK-ERR-001', 'events-after-error', frameAt(frame.index), `an event after the error line at frame[${errorLine.index}]: the error line is the last line before EOF`, 'end of stream', frame.data.slice(0, 120)));
    if (role === 'gateway') {
      const glued = gluedGatewayFrame(frame);
      if (glued) { exercise('GW-ERR-004'); out.push(glued); }
      if (gatewayTerminal && frame.kind !== 'gateway-error') out.push(afterTerminal(frame, gatewayTerminal));
    }
    const json = frame.json;
    switch (frame.kind) {
      case 'event': {
        if (!eventExercised) { exercise('ADK-EVT-001', 'ADK-KEY-001'); eventExercised = true; }
        const dialect = eventDialect(json as Json, hint);
        streamDialect ??= dialect;
        run.dialect = streamDialect;
        out.push(...judgeEvent(frame, json as Json, dialect, streamDialect));
        // The version: adk-python 2.x writes nodeInfo on every event, 1.x on none; one server, one version.
        const server = serverOf(dialect, json as Json);
        if (server !== undefined) {
          if (run.server === undefined) run.server = server;
          else if (server !== run.server && dialect === streamDialect) out.push(...once(finding('ADK-KEY-001', 'mixed-versions', frameAt(frame.index), `the event is ${server}'s (${server === 'adk-python@2.x' ? 'it carries' : 'it lacks'} nodeInfo), but the stream's first event was ${run.server}'s: one server writes one version`, run.server, server)));
        }
        break;
      }
      case 'error-line':
        exercise('ADK-ERR-001');
        out.push(...judgeErrorLine(frame, streamDialect ?? hint, legacy));
        errorLine ??= frame;
        break;
      case 'gateway-error':
        if (role === 'gateway') {
          const found = judgeGatewayFrame(run, frame, json as Json, gatewayTerminal);
          exercise(gatewayFrameRequirement(json as Json), 'GW-ERR-003', 'GW-ERR-005');
          out.push(...found);
          // After a held-open stream an upstream failure is possible; right after the answer, the run was over.
          if (finalAnswer !== undefined && !heldOpenReported && isRecord(json) && json.error_code === 'STREAM_ERROR') { exercise('GW-PASS-004'); out.push(errorAfterAnswer(frame, finalAnswer)); }
          gatewayTerminal ??= frame;
        } else {
          exercise('ADK-ERR-001');
          out.push(finding('ADK-ERR-001', 'error-line-shape', frameAt(frame.index), 'the ADK server wrote a gateway\'s error frame (error_code / status_code): an ADK error line is {"error": "<message>"}', 'an ADK error line', json));
          errorLine ??= frame;
        }
        break;
      case 'done':
        if (role === 'gateway') { exercise('GW-PASS-004'); out.push(doneAdded(frame)); } else out.push(...once(finding('ADK-SSE-002', 'done-sentinel', frameAt(frame.index), 'the stream carries a [DONE] sentinel; ADK servers end the stream at EOF and send none', 'no [DONE]', frame.data)));
        break;
      case 'invalid':
        exercise('ADK-EVT-001');
        out.push(finding('ADK-EVT-001', 'not-an-event', frameAt(frame.index), `the data is not an ADK event: ${frame.data.trim() === '' ? 'it is empty' : 'it is not a JSON object'}`, 'a JSON object', frame.data.slice(0, 200)));
        break;
    }
    return out;
  }

  /** Completion: the seed 001 rule (reference-impl/completion.ts), and the hold-open clock it implies. */
  function track(frame: TapFrame, classified: ReturnType<typeof classifyData>): void {
    const decision = completion.feed(classified);
    const errorEvent = frame.kind === 'event' && isRecord(frame.json) && typeof frame.json.errorCode === 'string';
    const terminal = frame.kind === 'gateway-error' || frame.kind === 'done' || (frame.kind === 'error-line' && (streamDialect ?? hint) !== 'adk-go');
    endsRun = terminal || errorEvent || (!decision.done && decision.candidate);
    // EOF right after a sub-agent's final answer ends a whole run too (real adk-js ends a transfer
    // that way without streaming); only the root agent's answer starts the hold-open clock.
    // A metadata-only event after it (adk-js's coordinator, re-invoked after a transfer, ends the
    // stream with one: no content, finishReason STOP) leaves the run answered.
    const metadataOnly = classified.kind === 'event' && isMetadataOnly(classified.event);
    // An error line ends a run at EOF in every dialect (adk-go's is not terminal only in that more
    // may follow it), and so does a skipSummarization response (is_final_response without text).
    const skipSummarization = classified.kind === 'event' && isRecord(classified.event.actions) && classified.event.actions['skipSummarization'] === true;
    answered = endsRun || frame.kind === 'error-line' || skipSummarization || (!decision.done && decision.answered === true) || (metadataOnly && answered);
    finalAnswer = frame.kind === 'event' && !errorEvent && endsRun ? frame.index : metadataOnly ? finalAnswer : undefined;
    if (holdTimer !== undefined) { clearTimeout(holdTimer); holdTimer = undefined; }
    if (!endsRun || heldOpenReported) return;
    exercise(role === 'gateway' && frame.kind === 'gateway-error' ? 'GW-ERR-003' : 'ADK-END-002');
    holdTimer = setTimeout(() => {
      holdTimer = undefined;
      if (ended) return;
      heldOpenReported = true;
      const what = frame.kind === 'gateway-error' ? 'the gateway\'s terminal frame' : frame.kind === 'error-line' ? 'the error line' : frame.kind === 'done' ? 'the [DONE] sentinel' : errorEvent ? 'the error event' : 'the root agent\'s final answer';
      const f = role === 'gateway' && frame.kind === 'gateway-error'
        ? finding('GW-ERR-003', 'stream-not-ended', `frame[${frame.index}]`, `the gateway kept the stream open ${limits.holdOpenMs} ms after ${what} (--hold-open-ms): a failed stream ends after its frame`, 'end of stream', 'held open')
        : finding('ADK-END-002', 'held-open', `frame[${frame.index}]`, `the stream was held open ${limits.holdOpenMs} ms after ${what} (--hold-open-ms); ADK servers end the response when the run is over, and a client must otherwise guess`, 'end of stream', 'held open');
      report([f]);
    }, limits.holdOpenMs);
    holdTimer.unref?.();
  }

  function chunk(piece: Uint8Array): void {
    bytes += piece.length;
    if (!streaming || !reader) return;
    try { reader.feed(piece); } catch (error) { report([judgeError('framing', 'ADK-SSE-001', error)]); }
  }

  function end(ending: RunEnding, error?: string): TapRunSummary {
    ended = true;
    if (holdTimer !== undefined) { clearTimeout(holdTimer); holdTimer = undefined; }
    const found: Finding[] = [];
    // The end of the body is judged only when the body ended (EOF or a cut): a run the client left was never seen to its end.
    if (streaming && reader && (ending === 'eof' || ending === 'upstream-cut')) { const r = reader; found.push(...safely('framing', 'ADK-SSE-001', () => { r.end(); return []; })); }
    if (ending === 'upstream-failed') {
      exercise('ADK-HTTP-001');
      found.push(upstreamFailure(error) === 'not-http'
        ? finding('ADK-HTTP-001', 'not-http', 'response', `the upstream's answer to ${run.method} ${run.url} is not HTTP (${error}); the tap answered 502 and keeps serving`, 'an HTTP response', error ?? null)
        : finding('ADK-HTTP-001', 'no-response', 'response', `the upstream gave no response to ${run.method} ${run.url} (${error ?? 'the connection closed'}); the tap answered 502 and keeps serving`, 'an HTTP response', error ?? null));
    }
    if (streaming) {
      if (ending === 'eof' && !answered && requestInvalid !== true) {
        found.push(finding('ADK-END-001', 'eof-without-answer', `byte ${bytes}`, lastIndex === -1 ? 'the stream ended at EOF without any event: no answer, no error line' : `the stream ended at EOF after frame[${lastIndex}], which is neither an agent's final answer (finishReason STOP with text, no pending call) nor an error line or error event`, 'a final answer or an error before EOF', lastIndex === -1 ? 'no event' : lastStart));
      }
      if (ending === 'eof' && role === 'gateway') exercise('GW-PASS-004');
      if (ending === 'upstream-cut') {
        if (role === 'gateway') { exercise('GW-ERR-003'); found.push(finding('GW-ERR-003', 'stream-broken', `byte ${bytes}`, `the gateway broke the connection mid-stream (${error ?? 'closed'}) instead of ending it with a terminal frame`, 'a terminal frame, then the end of the stream', error ?? 'broken')); } else found.push(finding('ADK-END-001', 'stream-cut', `byte ${bytes}`, `the upstream broke the connection mid-stream (${error ?? 'closed'}) after ${bytes} bytes: the run did not end`, 'the end of the response', error ?? 'broken'));
      }
    }
    // A run the client left (or the tap stopped) was never seen to its end: its completion is not judged.
    if ((ending === 'client-closed' || ending === 'stopped') && judged.get('ADK-END-001')?.length === 0) judged.delete('ADK-END-001');
    for (const judge of config.judges ?? []) if (judge.end) found.push(...safely(judge.name, judge.requirement, () => judge.end?.({ run, role, counts, last }, ending) ?? []));
    report(found);
    const failed = [...judged.values()].some((list) => list.length > 0);
    return {
      ending,
      ...(run.response ? { status: run.response.status } : {}),
      frames: lastIndex + 1,
      bytes,
      durationMs: Math.round(performance.now() - started),
      judged,
      droppedFindings: dropped,
      failed,
      ...(error !== undefined ? { error } : {}),
    };
  }

  if (!runPaths.has(run.url.split('?')[0] ?? '') && run.kind === 'run') throw new TypeError(`createRunJudge: a run is POST /run_sse or /run_sse_enhanced, got ${run.url}`);
  return { requestBody, responseHead, chunk, end };
}

const adkJsServers = 'adk-js@2.0 or adk-js@1.4-1.6';

/** The versioned server name an event shows (see TapRun.server). */
function serverOf(dialect: StreamDialect, json: Json): string | undefined {
  // adk-js 1.4 to 1.6 and 2.0 write the same events (docs/mock.md): an event cannot tell them apart.
  if (dialect === 'adk-js') return adkJsServers;
  if (dialect === 'adk-go') return 'adk-go@2.0.0';
  if (dialect === 'adk-python') return Object.hasOwn(json, 'nodeInfo') ? 'adk-python@2.x' : 'adk-python@1.x-genC';
  return undefined;
}
