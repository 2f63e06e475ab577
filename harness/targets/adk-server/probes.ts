/**
 * The probes that certify a server helper (docs/adk-server-contract.md): each serves one script's
 * Runner through the helper on 127.0.0.1, drives POST /run_sse as a client would (reads it all,
 * leaves mid-run, reads nothing, sends an empty message) and hands what it saw to the pure checks
 * of harness/checks/adk-server. The fidelity probe also feeds the served bytes, as they arrive, to
 * the tap's judge of an ADK server's stream (tap/run-judge.ts), so ADK-* is judged as on live traffic.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { checkAbort, checkBackpressure, checkEmpty, checkFidelity, type EmptyObservation } from '../../checks/adk-server/checks.ts';
import type { CheckOutcome, Finding } from '../../model.ts';
import { createRunJudge } from '../../../tap/run-judge.ts';
import { defaultLimits, type TapRun } from '../../../tap/types.ts';
import { adkStreamRequirements } from '../../requirements/adk-stream.ts';
import { APP_NAME, USER_ID, serveHelper, type AdkServerFactory, type ServedHelper } from './rig.ts';
import type { FloodShape } from './agents.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Posted = { res: IncomingMessage; destroy: () => void };

/** POST /run_sse; resolves with the response head (the body is the caller's to read or leave). */
function post(base: string, body: unknown): Promise<Posted> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = httpRequest(`${base}/run_sse`, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), Accept: 'text/event-stream' } }, (res) => resolve({ res, destroy: () => req.destroy() }));
    req.on('error', reject);
    req.setTimeout(20_000, () => req.destroy(new Error('no response within 20 s')));
    req.end(payload);
  });
}

const runBody = (sessionId: string, streaming: boolean, text = 'How big was Cedar Creek?') => ({ appName: APP_NAME, userId: USER_ID, sessionId, newMessage: { role: 'user', parts: [{ text }] }, streaming });

/** Each adk-stream requirement's outcome from the judged runs: failed if any run failed it, passed if one exercised it, else untested. */
function adkOutcomes(judged: ReadonlyArray<ReadonlyMap<string, Finding[]>>, scenario: string): CheckOutcome[] {
  return adkStreamRequirements.map((r) => {
    const seen = judged.filter((m) => m.has(r.id));
    const findings = seen.flatMap((m) => m.get(r.id) ?? []);
    if (seen.length === 0) return { requirement: r.id, scenario, status: 'untested' as const, findings: [], reason: r.id === 'ADK-ERR-001' ? 'the helper wrote no error line when the Runner threw' : 'no served run exercised it' };
    return { requirement: r.id, scenario, status: findings.length ? 'failed' as const : 'passed' as const, findings };
  });
}

/** One run read to its end, judged as the tap judges an ADK server (role adk); the served events for fidelity. */
async function judgedRun(helper: ServedHelper, name: string, body: unknown): Promise<{ judged: ReadonlyMap<string, Finding[]>; served: unknown[]; status: number }> {
  const run: TapRun = { seq: 1, name, kind: 'run', method: 'POST', url: '/run_sse', startedAt: new Date().toISOString(), requestHeaders: [['content-type', 'application/json']], dialect: 'unknown' };
  const served: unknown[] = [];
  const judge = createRunJudge({ run, role: 'adk', limits: { ...defaultLimits, holdOpenMs: 2000 }, onFrame: (frame) => { if (frame.kind === 'event') served.push(frame.json); }, onFindings: () => {} });
  judge.requestBody(Buffer.from(JSON.stringify(body)), false);
  const { res } = await post(helper.url, body);
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
  judge.responseHead(res.statusCode ?? 0, pairs);
  const ending = await new Promise<'eof' | 'upstream-cut'>((resolve) => {
    res.on('data', (c: Buffer) => judge.chunk(c));
    res.on('end', () => resolve('eof'));
    res.on('error', () => resolve('upstream-cut'));
    res.on('aborted', () => resolve('upstream-cut'));
  });
  return { judged: judge.end(ending).judged, served, status: res.statusCode ?? 0 };
}

/** SRV-FID-001 and ADK-*: the fields run, whole and streamed, and a run whose Runner throws. */
export async function fidelityProbe(factory: AdkServerFactory): Promise<CheckOutcome[]> {
  const scenario = 'probe:adk-server-fidelity';
  const judged: Array<ReadonlyMap<string, Finding[]>> = [];
  const fidelity: Finding[] = [];
  let compared = 0;
  const helper = await serveHelper(factory, 'fields');
  try {
    for (const streaming of [false, true]) {
      const id = `fidelity-${streaming ? 'stream' : 'whole'}`;
      await helper.sessions(id);
      const r = await judgedRun(helper, id, runBody(id, streaming));
      judged.push(r.judged);
      if (r.status === 200 && helper.record.yielded.length > 0) { compared++; fidelity.push(...checkFidelity(id, helper.record.yielded, r.served)); }
    }
  } finally { await helper.close(); }
  const throwing = await serveHelper(factory, 'throws');
  try {
    await throwing.sessions('throws');
    judged.push((await judgedRun(throwing, 'runner-throws', runBody('throws', false))).judged);
  } finally { await throwing.close(); }
  const fid: CheckOutcome = compared === 0
    ? { requirement: 'SRV-FID-001', scenario, status: 'untested', findings: [], reason: 'the helper served neither fields run with 200 and a Runner that yielded events' }
    : { requirement: 'SRV-FID-001', scenario, status: fidelity.length ? 'failed' : 'passed', findings: fidelity };
  return [fid, ...adkOutcomes(judged, scenario)];
}

/** How long after the client leaves the run must have stopped. */
export const abortBoundMs = 2000;

/** SRV-ABORT-001: read three events of a run that loops on a tool forever, close the socket, watch the Runner. */
export async function abortProbe(factory: AdkServerFactory): Promise<CheckOutcome[]> {
  const helper = await serveHelper(factory, 'loop');
  try {
    await helper.sessions('abort');
    const { res, destroy } = await post(helper.url, runBody('abort', false));
    let events = 0;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      res.on('data', (c: Buffer) => { events += c.toString('utf8').split('\n\n').length - 1; if (events >= 3) { clearTimeout(timer); resolve(); } });
      res.on('end', () => { clearTimeout(timer); resolve(); });
    });
    destroy();
    const closedAt = performance.now();
    const callsAtClose = helper.record.model.calls;
    await sleep(abortBoundMs);
    const stoppedAt = helper.record.endedAt ?? helper.record.abortedAt;
    return [checkAbort({ eventsRead: events, ...(helper.record.ended ? { ended: helper.record.ended } : {}), aborted: helper.record.aborted, ...(stoppedAt !== undefined ? { msToStop: Math.max(0, Math.round(stoppedAt - closedAt)) } : {}), callsAtClose, callsAfterBound: helper.record.model.calls, boundMs: abortBoundMs })];
  } finally { await helper.close(); }
}

/** The flood: 4,000 events of 16 kB (64 MB); loopback's socket buffers hold a few MB, so a helper that waits for drain pulls a few hundred. */
export const flood: FloodShape = { events: 4000, textBytes: 16_000 };
export const backpressureBoundEvents = 1500;
/** The client reads nothing for at least this long, then until the helper has pulled past the bound or stopped pulling for 500 ms (at most 10 s: a loaded machine yields slowly). */
const quietMs = 1000;
const steadyMs = 500;
const quietLimitMs = 10_000;

/** Wait while the helper pulls: until it passed `bound`, or pulled nothing new for steadyMs after quietMs. */
async function waitForPulls(pulled: () => number, bound: number): Promise<number> {
  const start = performance.now();
  let last = -1;
  let since = start;
  for (;;) {
    await sleep(100);
    const now = performance.now();
    const n = pulled();
    if (n > bound) return Math.round(now - start);
    if (n !== last) { last = n; since = now; }
    if ((now - start >= quietMs && now - since >= steadyMs) || now - start >= quietLimitMs) return Math.round(now - start);
  }
}

/** SRV-BP-001: take the response head, read nothing, count what the helper pulled from the Runner. */
export async function backpressureProbe(factory: AdkServerFactory): Promise<CheckOutcome[]> {
  const helper = await serveHelper(factory, 'flood', flood);
  try {
    await helper.sessions('flood');
    const { res, destroy } = await post(helper.url, runBody('flood', false));
    res.pause();
    const waitedMs = await waitForPulls(() => helper.record.pulled, backpressureBoundEvents);
    const pulled = helper.record.pulled;
    destroy();
    return [checkBackpressure({ status: res.statusCode, offered: flood.events + 1, eventBytes: flood.textBytes, pulled, boundEvents: backpressureBoundEvents, waitedMs })];
  } finally { await helper.close(); }
}

export const emptyMessages: ReadonlyArray<{ label: string; message: unknown }> = [
  { label: 'no-parts', message: { role: 'user', parts: [] } },
  { label: 'empty-text', message: { role: 'user', parts: [{ text: '' }] } },
];

/** SRV-EMPTY-001: each empty message on its own session; the model's calls counted after each answer ends. */
export async function emptyProbe(factory: AdkServerFactory): Promise<CheckOutcome[]> {
  const helper = await serveHelper(factory, 'plain');
  const seen: EmptyObservation[] = [];
  try {
    for (const { label, message } of emptyMessages) {
      await helper.sessions(label);
      const before = helper.record.model.calls;
      let status: number | undefined;
      try {
        const { res } = await post(helper.url, { appName: APP_NAME, userId: USER_ID, sessionId: label, newMessage: message, streaming: false });
        status = res.statusCode;
        res.resume();
        await new Promise<void>((resolve) => { res.on('end', resolve); res.on('error', () => resolve()); res.on('aborted', () => resolve()); });
      } catch { /* no answer: counted below as unanswered */ }
      await sleep(100);
      seen.push({ label, message, ...(status !== undefined ? { status } : {}), modelCalls: helper.record.model.calls - before });
    }
  } finally { await helper.close(); }
  return [checkEmpty(seen)];
}
