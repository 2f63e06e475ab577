/**
 * The tap's public surface: the platform-free core and its observer interface, the built-in
 * observers (the bounded report, --save-failing), and the node:http shell.
 */
export { createTapCore, type TapCore, type TapCoreConfig, type RunHandle } from './core.ts';
export { createReportCollector, judgeableRequirements, type ReportCollector, type ReportCollectorOptions } from './report.ts';
export { createFailingRunSaver, type FailingRunSaver, type SaveFailingOptions } from './save-failing.ts';
export { startTap, parseUpstream, type RunningTap, type StartTapOptions } from './server.ts';
export { tapMutants, type TapMutant } from '../harness/mutants/tap.ts';
export { defaultLimits, type Judge, type JudgeContext, type RunEnding, type StreamDialect, type TapFrame, type TapLimits, type TapObserver, type TapRun, type TapRunSummary, type UpstreamRole } from './types.ts';
