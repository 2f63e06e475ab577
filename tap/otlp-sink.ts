/**
 * `adk-conformance tap --otlp URL`: each judged run becomes one OpenTelemetry span, each finding
 * an event on it, exported over OTLP/HTTP (JSON) by the OpenTelemetry JS SDK. docs/tap-live.md
 * is the user reference (span and attribute names, bounds).
 *
 * publish() only touches memory (start a span, add an event, end it); the SDK's
 * BatchSpanProcessor sends from a timer, so a slow or dead collector never slows the tap. Memory
 * is bounded three ways: runs open at once (`maxOpenRuns`), findings per span
 * (`maxFindingsPerRun`), and spans ended but not yet acknowledged by the collector
 * (`maxQueuedRuns`); past a bound the run or finding is dropped and counted in stats().
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Attributes, type HrTime, type Span } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import type { Finding } from '../harness/model.ts';
import { packageVersion } from '../harness/version.ts';
import type { LiveEvent, LiveSink } from './live-events.ts';
import { capText, createProblemReporter, jsonText, positiveInteger } from './live-sink-support.ts';

export const spanName = 'adk-conformance.tap.run';
export const findingEventName = 'adk-conformance.finding';

/** Every attribute the sink writes, by name (docs/tap-live.md lists them). */
export const attr = {
  runId: 'adk_conformance.run.id',
  method: ATTR_HTTP_REQUEST_METHOD,
  path: ATTR_URL_PATH,
  tap: 'adk_conformance.tap.name',
  dialect: 'adk_conformance.run.dialect',
  ending: 'adk_conformance.run.ending',
  status: ATTR_HTTP_RESPONSE_STATUS_CODE,
  frames: 'adk_conformance.run.frames',
  findings: 'adk_conformance.run.findings',
  findingsNotExported: 'adk_conformance.run.findings_not_exported',
  verdict: 'adk_conformance.run.verdict',
  requirement: 'adk_conformance.finding.requirement',
  code: 'adk_conformance.finding.code',
  findingPath: 'adk_conformance.finding.path',
  message: 'adk_conformance.finding.message',
  expected: 'adk_conformance.finding.expected',
  actual: 'adk_conformance.finding.actual',
  frameIndex: 'adk_conformance.frame.index',
} as const;

/** The longest message, and expected/actual JSON, a finding event carries (characters). */
export const maxMessageChars = 2048;
export const maxValueChars = 1024;

export type OtlpSinkConfig = {
  /** The collector's OTLP/HTTP traces endpoint; a bare origin (`http://127.0.0.1:4318`) gets `/v1/traces`. */
  url: string;
  /** `service.name` of the exported resource. */
  serviceName?: string;
  /** Told once per kind of problem (export failed, a bound was hit, an internal error); never called from publish's caller stack with a throw. */
  onError: (error: Error) => void;
  /** Extra request headers (a collector's auth); OTEL_EXPORTER_OTLP_HEADERS also applies. */
  headers?: Record<string, string>;
  /** How long one export may take, retries included (ms). */
  timeoutMs?: number;
  /** How long ended spans wait to be batched (ms). */
  scheduledDelayMs?: number;
  maxOpenRuns?: number;
  maxQueuedRuns?: number;
  maxFindingsPerRun?: number;
};

export type OtlpSinkStats = {
  /** Spans the collector acknowledged. */
  exportedRuns: number;
  /** Spans whose export failed (collector down, refused, timed out). */
  failedRuns: number;
  /** Runs not exported because a bound was hit (too many open, or too many waiting for the collector). */
  droppedRuns: number;
  /** Findings beyond maxFindingsPerRun (also on the span as findings_not_exported). */
  droppedFindings: number;
  /** Events for a run this sink is not tracking (dropped, or published after close). */
  ignoredEvents: number;
  /** Problems seen, by kind (onError heard only the first of each). */
  problems: Record<'export' | 'overflow' | 'internal', number>;
};

export type OtlpSink = LiveSink & { stats(): OtlpSinkStats };

type OpenRun = { span: Span; findings: number; droppedFindings: number };

/** The traces endpoint for a user's URL, or a thrown configuration error that says what to pass. */
export function tracesEndpoint(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`--otlp needs an http(s) URL of an OTLP/HTTP collector, got ${JSON.stringify(url)}: pass e.g. http://127.0.0.1:4318 (the collector's otlp receiver, protocol http)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`--otlp speaks OTLP/HTTP only, got the ${parsed.protocol} URL ${url}: pass the collector's http endpoint, e.g. http://127.0.0.1:4318 (gRPC on :4317 is not supported)`);
  }
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/v1/traces';
  return parsed.href;
}

/** Epoch ms as the SDK's [seconds, nanoseconds]: a bare number earlier than the process start would be read as a performance.now() offset. */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))];
}

function findingAttributes(finding: Finding, frameIndex: number | undefined): Attributes {
  const out: Attributes = {
    [attr.requirement]: finding.requirement,
    [attr.code]: finding.code,
    [attr.findingPath]: finding.path,
    [attr.message]: capText(finding.message, maxMessageChars),
  };
  if (finding.expected !== undefined) out[attr.expected] = jsonText(finding.expected, maxValueChars);
  if (finding.actual !== undefined) out[attr.actual] = jsonText(finding.actual, maxValueChars);
  if (frameIndex !== undefined) out[attr.frameIndex] = frameIndex;
  return out;
}

export function createOtlpSink(config: OtlpSinkConfig): OtlpSink {
  const url = tracesEndpoint(config.url);
  if (typeof config.onError !== 'function') throw new TypeError('createOtlpSink needs onError(error): pass a function that reports the sink\'s problems (e.g. to stderr)');
  const timeoutMs = positiveInteger('timeoutMs', config.timeoutMs, 10_000, 600_000);
  const scheduledDelayMs = positiveInteger('scheduledDelayMs', config.scheduledDelayMs, 1000, 600_000);
  const maxOpenRuns = positiveInteger('maxOpenRuns', config.maxOpenRuns, 1024, 1_000_000);
  const maxQueuedRuns = positiveInteger('maxQueuedRuns', config.maxQueuedRuns, 2048, 1_000_000);
  const maxFindingsPerRun = positiveInteger('maxFindingsPerRun', config.maxFindingsPerRun, 128, 10_000);
  const problems = createProblemReporter(config.onError, `OTLP export to ${url}`);
  const stats = { exportedRuns: 0, failedRuns: 0, droppedRuns: 0, droppedFindings: 0, ignoredEvents: 0 };
  // Spans ended and not yet answered by the collector: never more than the batch processor's
  // queue, so the processor never drops silently; this sink drops first, and counts.
  let queued = 0;

  const otlp = new OTLPTraceExporter({ url, timeoutMillis: timeoutMs, ...(config.headers ? { headers: config.headers } : {}) });
  const exporter: SpanExporter = {
    export(spans: ReadableSpan[], done) {
      // The processor may start an export from inside span.end(), i.e. inside publish(): serialising
      // a batch is real work, so it runs on the next turn of the event loop, never on the tap's stack.
      setImmediate(() => otlp.export(spans, (result) => {
        queued -= spans.length;
        if (result.code === ExportResultCode.SUCCESS) stats.exportedRuns += spans.length;
        else {
          stats.failedRuns += spans.length;
          const why = result.error?.message ?? 'no answer';
          problems.report('export', new Error(`failed (${why}); those runs are dropped and the tap keeps forwarding. Check that an OTLP/HTTP receiver listens there (an OpenTelemetry Collector's otlp receiver with protocol http, port 4318 by default)`));
        }
        done(result);
      }));
    },
    shutdown: () => otlp.shutdown(),
    forceFlush: () => otlp.forceFlush(),
  };
  const provider = new BasicTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName ?? 'adk-conformance-tap', [ATTR_SERVICE_VERSION]: packageVersion() })),
    spanLimits: { eventCountLimit: maxFindingsPerRun, attributeValueLengthLimit: 4 * maxValueChars },
    spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: maxQueuedRuns, maxExportBatchSize: Math.min(512, maxQueuedRuns), scheduledDelayMillis: scheduledDelayMs, exportTimeoutMillis: timeoutMs + 5000 })],
  });
  // Not registered globally: the tap's own spans must not capture, or be captured by, anything else in the process.
  const tracer = provider.getTracer('adk-conformance/tap', packageVersion());
  const open = new Map<string, OpenRun>();
  let closing: Promise<void> | undefined;

  function addFinding(run: OpenRun, finding: Finding, at: number, frameIndex?: number): void {
    if (run.findings >= maxFindingsPerRun) {
      run.droppedFindings += 1;
      stats.droppedFindings += 1;
      return;
    }
    run.findings += 1;
    run.span.addEvent(findingEventName, findingAttributes(finding, frameIndex), hrTime(at));
  }

  function handle(event: LiveEvent): void {
    if (event.kind === 'run-start') {
      if (open.has(event.runId)) { stats.ignoredEvents += 1; return; }
      if (open.size >= maxOpenRuns) {
        stats.droppedRuns += 1;
        problems.report('overflow', new Error(`${maxOpenRuns} runs were open at once; run ${event.runId} and later ones past that bound are not exported (raise maxOpenRuns)`));
        return;
      }
      const attributes: Attributes = { [attr.runId]: event.runId, [attr.method]: event.method, [attr.path]: event.path.split('?')[0] ?? event.path, [attr.tap]: event.tap };
      if (event.dialect !== undefined) attributes[attr.dialect] = event.dialect;
      open.set(event.runId, { span: tracer.startSpan(spanName, { kind: SpanKind.INTERNAL, startTime: hrTime(event.at), attributes }, ROOT_CONTEXT), findings: 0, droppedFindings: 0 });
      return;
    }
    const run = open.get(event.runId);
    if (!run) { stats.ignoredEvents += 1; return; }
    if (event.kind === 'frame') {
      for (const finding of event.findings) addFinding(run, finding, event.at, event.index);
      return;
    }
    if (event.kind === 'finding') { addFinding(run, event.finding, event.at); return; }
    open.delete(event.runId);
    if (queued >= maxQueuedRuns) {
      // The span is never ended, so the SDK never holds it: it is garbage once dropped here.
      stats.droppedRuns += 1;
      problems.report('overflow', new Error(`${maxQueuedRuns} runs were waiting for the collector; run ${event.runId} and later ones past that bound are dropped (is the collector slow or down?)`));
      return;
    }
    const attributes: Attributes = { [attr.ending]: event.ending, [attr.frames]: event.frames, [attr.findings]: event.findings, [attr.verdict]: event.verdict };
    if (event.status !== undefined) attributes[attr.status] = event.status;
    if (run.droppedFindings > 0) attributes[attr.findingsNotExported] = run.droppedFindings;
    run.span.setAttributes(attributes);
    run.span.setStatus(event.verdict === 'failed'
      ? { code: SpanStatusCode.ERROR, message: `${event.findings} finding${event.findings === 1 ? '' : 's'}` }
      : { code: SpanStatusCode.OK });
    queued += 1;
    run.span.end(hrTime(event.at));
  }

  return {
    publish(event) {
      if (closing) { stats.ignoredEvents += 1; return; }
      try { handle(event); } catch (error) { problems.report('internal', error); }
    },
    close() {
      closing ??= (async () => {
        // A run the tap never finished still says what was seen of it.
        for (const [runId, run] of open) {
          try {
            run.span.setAttributes({ [attr.ending]: 'unfinished', ...(run.droppedFindings > 0 ? { [attr.findingsNotExported]: run.droppedFindings } : {}) });
            run.span.end();
            queued += 1;
          } catch (error) { problems.report('internal', error); }
          open.delete(runId);
        }
        // Export failures were already reported by the exporter wrapper; a rejected flush adds nothing.
        await provider.forceFlush().catch(() => undefined);
        await provider.shutdown().catch(() => undefined);
      })();
      return closing;
    },
    stats: () => ({ ...stats, problems: problems.counts() }),
  };
}
