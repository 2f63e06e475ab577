/**
 * The recorder's public surface (package subpath `./recorder`): turn a captured exchange into a
 * scenario, record a run from a server, and the redaction list that keeps secrets out.
 */
export { buildScenario, type BuildOptions, type BuildResult } from './scenario.ts';
export { recordRun, type RecordOptions, type Recording } from './record.ts';
export { captureRun, createSession, UpstreamError, type HttpTarget, type CaptureBounds } from './http-capture.ts';
export { createRedactor, defaultRedactions, droppedHeaders, redactedMark, userRedactions, type RedactionRule, type Redactor } from './redact.ts';
export { detectDialect } from './dialect.ts';
export { createNormalizer, normalizedStartMs } from './normalize.ts';
export { lintRecording } from './lint.ts';
export { importAdkConformance, type ImportOptions, type ImportReport } from './adk-import/import-cases.ts';
export type { CapturedChunk, CapturedExchange, CapturedRequest, CapturedResponse, DialectEvidence } from './types.ts';
