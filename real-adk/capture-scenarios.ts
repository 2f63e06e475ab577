/**
 * `run --upstream real-adk-js`: each scenario the real adk-js runtime can express is played once on
 * the REAL adk-js 2.0.0 API server (the fidelity rig: scripted Gemini, real agents, tools and
 * sessions), in the streaming mode the scenario asks for, and its response (status, headers, body)
 * becomes the scenario's upstream as captured bytes. The certification then serves exactly those
 * bytes, so a gateway or transformer is judged on what the real server wrote, not on the mock's
 * rendering of the same script. A scenario's faults (what an intermediary does to the bytes) are
 * kept and applied to the real bytes by the mock's fault engine, as to its own rendering.
 * Scenarios it cannot express are left out, each with its reason.
 */
import type { Scenario } from '../schemas/types.ts';
import type { AdkModules } from './load.ts';
import { ADK_VERSION } from './load.ts';
import { exchange, sessionPath } from './observe.ts';
import type { RealScript } from './plays.ts';
import { expressScenario } from './script.ts';
import { startRealAdk } from './server.ts';

export type LeftOut = { id: string; reason: string };

export type RealCapture = {
  /** The captured scenarios: same ids, tags and expectations; `upstream` is the real server's bytes. */
  scenarios: Scenario[];
  leftOut: LeftOut[];
  runtime: string;
};

const PROGRESSIVE_SSE = 'ADK_ENABLE_PROGRESSIVE_SSE_STREAMING';

/**
 * Headers the replaying server writes itself: a stale `Date`, and the transfer coding of the
 * capture's own connection, would describe another response.
 */
const hopHeaders = new Set(['date', 'transfer-encoding', 'content-length', 'keep-alive']);

/** One chunk per SSE frame, as adk-js writes them (one `res.write` per event). */
function chunksOf(body: string): Array<{ text: string }> {
  if (body === '') return [];
  return body.split(/(?<=\n\n)/).map((text) => ({ text }));
}

function whyNot(scenario: Scenario): string | undefined {
  if (scenario.upstream.kind !== 'run') return `scripts ${scenario.upstream.kind === 'bytes' ? 'raw bytes' : `a ${scenario.upstream.kind} upstream`}, which no real server renders by itself`;
  if ((scenario.tags ?? []).includes('slow')) return 'tagged slow (its silences are the point, and the capture does not replay timing)';
  return undefined;
}

export async function captureOnRealAdk(modules: AdkModules, scenarios: readonly Scenario[], runTag = `${process.pid}`): Promise<RealCapture> {
  const leftOut: LeftOut[] = [];
  const playable: Array<{ scenario: Scenario; script: RealScript }> = [];
  for (const scenario of scenarios) {
    const reason = whyNot(scenario);
    if (reason) { leftOut.push({ id: scenario.id, reason }); continue; }
    // Faults distort the server's bytes the way an intermediary would: the real server's bytes get
    // the same distortion from the mock's fault engine, so only the run itself must be playable.
    const e = expressScenario({ ...scenario, faults: [] });
    if (!e.ok) { leftOut.push({ id: scenario.id, reason: `not expressible on the real runtime: ${e.reason}` }); continue; }
    const gap = scenario.request.streaming === true ? e.notIn?.streaming : undefined;
    if (gap !== undefined) { leftOut.push({ id: scenario.id, reason: `not expressible on the real runtime: ${gap}` }); continue; }
    playable.push({ scenario, script: e.script });
  }
  const captured: Scenario[] = [];
  if (playable.length === 0) return { scenarios: captured, leftOut, runtime: `@google/adk ${ADK_VERSION}` };

  const adkLogger = modules.adk.getLogger();
  modules.adk.setLogger(null);
  // The adk-js dialect is 2.0.0's default streaming; the environment must not switch aggregators.
  const progressive = process.env[PROGRESSIVE_SSE];
  delete process.env[PROGRESSIVE_SSE];
  const real = await startRealAdk(modules, new Map(playable.map((p) => [p.scenario.id, p.script])));
  try {
    let n = 0;
    for (const { scenario, script } of playable) {
      const sessionId = script.createSession ? `${scenario.session.sessionId}-real-${runTag}-${++n}` : scenario.session.sessionId;
      const userId = scenario.session.userId;
      if (script.createSession) {
        const made = await exchange(real.url, 'POST', sessionPath(script.appName, userId, sessionId), { state: script.sessionState });
        if (made.status !== 200) { leftOut.push({ id: scenario.id, reason: `the real server refused the session: ${made.status} ${made.body.slice(0, 120)}` }); continue; }
      }
      real.arm(script, sessionId, 0);
      const answer = await exchange(real.url, 'POST', '/run_sse', {
        appName: script.appName,
        userId,
        sessionId,
        newMessage: { role: 'user', parts: script.emptyParts ? [] : [{ text: script.message }] },
        streaming: scenario.request.streaming === true,
        ...(script.stateDelta ? { stateDelta: script.stateDelta } : {}),
      });
      const headers = answer.headers.filter(([name]) => !hopHeaders.has(name.toLowerCase()));
      captured.push({
        ...scenario,
        dialect: 'adk-js',
        replays: `the REAL adk-js ${ADK_VERSION} API server's response to this scenario's script (captured by --upstream real-adk-js at the start of this run)`,
        upstream: { kind: 'bytes', status: answer.status, headers, chunks: chunksOf(answer.body), end: 'eof' },
      } as Scenario);
    }
  } finally {
    await real.close();
    modules.adk.setLogger(adkLogger);
    if (progressive !== undefined) process.env[PROGRESSIVE_SSE] = progressive;
  }
  return { scenarios: captured, leftOut, runtime: `@google/adk ${ADK_VERSION}` };
}
