/**
 * A transformer written as a function of one event, certified through the kit's per-event adapter
 * (docs/harness.md "A function of one event"):
 *   npx adk-conformance run --transformer-module examples/adapters/per-event-transformer.ts
 * The app's logic here is the reference engine, kept per run in `context.run`; the kit decides when
 * the run is over and calls endOfStream once, with the reason.
 */
import { classifyData, createTransformer as createEngine } from '../../reference-impl/transformer/index.ts';

type Run = { engine?: ReturnType<typeof createEngine>; out: unknown[] };
type Context = { sessionId?: string; enhanced: boolean; index: number; run: Record<string, unknown> };

function runOf(context: Context): Required<Run> {
  const run = context.run as Run;
  if (!run.engine) {
    run.out = [];
    run.engine = createEngine({ ...(context.sessionId ? { sessionId: context.sessionId } : {}), ...(context.enhanced ? { enhanced: true } : {}), onEvent: (e) => run.out.push(e) });
  }
  return run as Required<Run>;
}

export function transformEvent(event: Record<string, unknown>, context: Context): unknown[] {
  const run = runOf(context);
  run.engine.pushFrame(classifyData(JSON.stringify(event)), `event ${context.index + 1}`);
  return run.out.splice(0);
}

export function endOfStream(context: Context & { reason: string }): unknown[] {
  const run = runOf(context);
  run.engine.end({ reason: context.reason as Parameters<typeof run.engine.end>[0]['reason'] });
  return run.out.splice(0);
}
