/**
 * The mock ADK server's public surface. The msw handlers are a separate entry
 * (`mock-adk/msw.ts`, the package's `./msw` subpath) so server users never load msw.
 */
export { buildMockApp, mockStateOf, type MockAppOptions } from './server/app.ts';
export { startMock, type StartMockOptions, type RunningMock } from './server/start.ts';
export { createReplay, planToStream, waitHeaders, resetError, type Replay, type ReplayResult, type ReplayOutcome, type ReplaySink } from './replay.ts';
export { nodeSink } from './node-sink.ts';
export { mockErrorCodes, type MockErrorCode } from './error-codes.ts';
export { dialectNames, isDialect, type MockState, type ArmedRun, type FaultSpec } from './server/mock-state.ts';
export type { JournalEntry } from './server/journal.ts';
export type { StreamCounts } from './server/stream-stats.ts';
export type { Dialect, ReplayPlan, PlanChunk, PlanEnd, RenderContext, RenderedFrame } from './core/types.ts';
