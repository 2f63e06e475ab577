/**
 * The fidelity command's parts without the full corpus: which scenarios the real runtime can
 * express (and why not), what the comparison normalises and what it still catches, the message a
 * machine without the optional packages gets, and the command's output and exit codes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../cli/commands/fidelity.ts';
import type { LineIo } from '../cli/io.ts';
import { UsageError } from '../cli/args.ts';
import { commands } from '../cli/main.ts';
import { compareObservations, normaliseObservation, withoutKnownLimitations, type Observed } from '../real-adk/compare.ts';
import { INSTALL_COMMAND, loadRealAdk, RealAdkMissingError } from '../real-adk/load.ts';
import { expressScenario } from '../real-adk/script.ts';
import { loadScenarios } from '../scenarios/loader.ts';

const corpus = loadScenarios().scenarios;
const scenario = (id: string) => {
  const s = corpus.find((x) => x.id === id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s;
};

function capture(): { io: LineIo; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l) => out.push(l), err: (l) => err.push(l) }, out: () => out.join('\n'), err: () => err.join('\n') };
}

const dir = mkdtempSync(join(tmpdir(), 'adk-fidelity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('which scenarios the real adk-js runtime can express', () => {
  it.each([
    ['done_sentinel', 'steps[3].raw: "data: [DONE]\\n\\n" is not something the adk-js server writes'],
    ['framing_bom', "faults (bom) distort the server's bytes the way an intermediary would; no server writes them"],
    ['session_not_found_python', 'no adk-js rendering (pinned to adk-python)'],
    ['stream_cut_while_partial', 'the stream ends with reset; a real server ends every run with EOF'],
    ['framing_huge_event', 'a bytes upstream scripts raw bytes, not an ADK run'],
    ['index_reuse_turn', 'no adk-js rendering (pinned to adk-python)'],
    ['missing_done_closed_without_final', 'the run ends right after a tool round; adk-js calls the model again after function responses (only skipSummarization ends the turn there)'],
    ['usage_missing_call_turn', 'steps[0].model.usageMissing: replays adk-js 1.4 to 1.6 (#645), not the 2.0.0 runtime in the loop'],
  ])('%s is not expressible, with its reason', (id, reason) => {
    expect(expressScenario(scenario(id))).toEqual({ ok: false, reason });
  });

  it("refuses a run that ends at an agent tool's result with skipSummarization, which adk-js 2.0.0 ignores", () => {
    const { pinned: _pinned, ...unpinned } = scenario('delegation_skip_summarization');
    expect(expressScenario({ ...unpinned, dialect: 'adk-js' })).toEqual({ ok: false, reason: "the run ends at an agent tool's result with skipSummarization; adk-js 2.0.0's AgentTool ignores it (tools/agent_tool.js) and calls the model again, which the script does not answer" });
  });

  it('reads the Cedar Creek delegation as a coordinator with four agent tools, each specialist answering its results in order', () => {
    const e = expressScenario(scenario('cedar_creek_briefing_adk_js'));
    if (!e.ok) throw new Error(e.reason);
    const root = e.script.agents.get('coordinator')!;
    expect(e.script.root).toBe('coordinator');
    expect(root.agentTools.map((t) => t.name)).toEqual(['burn_analyst', 'trail_assessor', 'cruising_assistant', 'nepa_advisor']);
    expect(root.plays.map((p) => p.kind)).toEqual(['turn', 'turn', 'turn']);
    expect(e.script.agents.get('trail_assessor')!.plays.map((p) => p.kind)).toEqual(['answer', 'answer']);
  });

  it('reads a thrown tool error as a FunctionTool that throws the message after the tool prefix', () => {
    const e = expressScenario(scenario('tool_error'));
    if (!e.ok) throw new Error(e.reason);
    expect(e.script.agents.get('coordinator')!.functionTools[0]!.calls[0]!.outcome).toEqual({ kind: 'throw', message: 'MTBS service unavailable (HTTP 503)' });
  });

  it('reads a transfer as a sub-agent, and model errors as genai ApiErrors, plain Errors or finish reasons', () => {
    const transfer = expressScenario(scenario('transfer_to_specialist'));
    const quota = expressScenario(scenario('model_error_event_429'));
    const plain = expressScenario(scenario('model_error_event'));
    const safety = expressScenario(scenario('model_error_event_safety'));
    if (!transfer.ok || !quota.ok || !plain.ok || !safety.ok) throw new Error('not expressed');
    expect(transfer.script.agents.get('coordinator')!.subAgents).toEqual(['trail_assessor']);
    expect(quota.script.agents.get('coordinator')!.plays[0]).toMatchObject({ kind: 'error', error: { kind: 'api-error', status: 429 } });
    expect(plain.script.agents.get('coordinator')!.plays[0]).toMatchObject({ kind: 'error', error: { kind: 'error', message: 'scripted model failure: socket hang up' } });
    expect(safety.script.agents.get('coordinator')!.plays[0]).toMatchObject({ kind: 'error', error: { kind: 'finish', finishReason: 'SAFETY' } });
  });
});

const event = (id: string, callId: string, extra: Record<string, unknown> = {}) => ({
  invocationId: 'e-11111111-2222-4333-8444-555555555555', author: 'coordinator', id, actions: { stateDelta: {} }, longRunningToolIds: [], timestamp: 1795318500511,
  content: { role: 'model', parts: [{ functionCall: { name: 'get_fire_perimeter', args: {}, id: callId } }] },
  usageMetadata: { promptTokenCount: 74, candidatesTokenCount: 8, totalTokenCount: 82 }, ...extra,
});
const response = (id: string, callId: string, invocationId = 'e-11111111-2222-4333-8444-555555555555') => ({ invocationId, author: 'coordinator', content: { role: 'user', parts: [{ functionResponse: { id: callId, name: 'get_fire_perimeter', response: {} } }] }, id, timestamp: 1795318500600 });
const CALL_A = 'adk-41af49b4-18ff-443c-9f25-a54f11077556';
const CALL_B = 'adk-00000000-18ff-443c-9f25-a54f11077556';

function observed(frames: unknown[], date = 'Sun, 22 Nov 2026 03:35:00 GMT'): Observed {
  return {
    run: { status: 200, headers: [['X-Powered-By', 'Express'], ['Date', date]], frames, framing: 'adk' },
    session: { status: 200, headers: [['ETag', 'W/"3e8-abc"'], ['Date', date]], body: { id: 's', state: {}, events: frames, lastUpdateTime: 1795318500700 } },
  };
}

describe('the comparison', () => {
  const pinned = { usagePinned: true };

  it('normalises ids, timestamps, invocation ids, Date and ETag, so two runs of one script are identical', () => {
    const a = observed([event('B8EWHkk1', CALL_A), response('mjYjjVjv', CALL_A)]);
    const other = 'e-99999999-2222-4333-8444-555555555555';
    const b = observed([event('zzzzzzzz', CALL_B, { timestamp: 1795318999999, invocationId: other }), response('yyyyyyyy', CALL_B, other)], 'Mon, 23 Nov 2026 20:00:00 GMT');
    (b.session.headers[0]!)[1] = 'W/"3e8-def"';
    expect(compareObservations(normaliseObservation(a, pinned), normaliseObservation(b, pinned))).toEqual([]);
  });

  it('still sees a response that answers another call than the one made', () => {
    const a = observed([event('B8EWHkk1', CALL_A), response('mjYjjVjv', CALL_A)]);
    const b = observed([event('B8EWHkk1', CALL_A), response('mjYjjVjv', CALL_B)]);
    expect(compareObservations(normaliseObservation(a, pinned), normaliseObservation(b, pinned))[0]).toEqual({ path: 'run.frames[1].content.parts[0].functionResponse.id', mock: '<call-id #1>', real: '<call-id #2>' });
  });

  it('sees key order, a float timestamp and token counts the script pins', () => {
    const e = event('B8EWHkk1', CALL_A);
    const { id, ...rest } = e;
    const reordered = { id, ...rest };
    const float = { ...e, timestamp: 1795318500.511 };
    const tokens = { ...e, usageMetadata: { promptTokenCount: 74, candidatesTokenCount: 9, totalTokenCount: 83 } };
    const diff = (x: unknown) => compareObservations(normaliseObservation(observed([e]), pinned), normaliseObservation(observed([x]), pinned))[0];
    expect(diff(reordered)?.path).toBe('run.frames[0]{key order}');
    expect(diff(float)).toEqual({ path: 'run.frames[0].timestamp', mock: '<timestamp integer>', real: '<timestamp number>' });
    expect(diff(tokens)).toEqual({ path: 'run.frames[0].usageMetadata.candidatesTokenCount', mock: 8, real: 9 });
    expect(compareObservations(normaliseObservation(observed([e]), { usagePinned: false }), normaliseObservation(observed([tokens]), { usagePinned: false }))).toEqual([]);
  });

  it('leaves the user event of GET session out only as the documented mock limitation', () => {
    const user = { invocationId: 'e-11111111-2222-4333-8444-555555555555', author: 'user', id: 'U', timestamp: 1, content: { role: 'user', parts: [{ text: 'hi' }] } };
    const real = observed([event('B8EWHkk1', CALL_A)]);
    real.session.body = { ...(real.session.body as object), events: [user, event('B8EWHkk1', CALL_A)] };
    const mock = observed([event('B8EWHkk1', CALL_A)]);
    expect(compareObservations(normaliseObservation(mock, pinned), normaliseObservation(real, pinned))[0]?.path).toBe('session.body.events[0]{keys}');
    expect(compareObservations(normaliseObservation(withoutKnownLimitations(mock), pinned), normaliseObservation(withoutKnownLimitations(real), pinned))).toEqual([]);
  });
});

describe('without the optional real runtime', () => {
  const missing = async (specifier: string): Promise<unknown> => {
    throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
  };

  it('names the missing packages and the one command that installs them', async () => {
    const error = await loadRealAdk(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RealAdkMissingError);
    expect((error as Error).message).toBe(`the real adk-js runtime is not installed (missing: @google/adk, @google/adk-devtools). Install it with:\n  ${INSTALL_COMMAND}`);
    expect(INSTALL_COMMAND).toBe('npm install --save-dev @google/adk@2.0.0 @google/adk-devtools@2.0.0');
  });

  it('fidelity exits 2 with that message and no stack trace', async () => {
    const c = capture();
    expect(await run(['--grep', 'plain_text'], { io: c.io, load: () => loadRealAdk(missing) })).toBe(2);
    expect(c.err()).toBe(`adk-conformance fidelity: the real adk-js runtime is not installed (missing: @google/adk, @google/adk-devtools). Install it with:\n  ${INSTALL_COMMAND}`);
    expect(c.out()).toBe('');
  });

  it('refuses another @google/adk version than the one the mock replays', async () => {
    const other = async (specifier: string): Promise<unknown> => (specifier === '@google/adk' ? { version: '2.1.0' } : {});
    await expect(loadRealAdk(other)).rejects.toThrow('missing: @google/adk@2.0.0 (found 2.1.0)');
  });
});

describe('adk-conformance fidelity', () => {
  it('prints one line per scenario and the summary, writes the JSON report, and exits 0 when all are identical', async () => {
    const c = capture();
    const file = join(dir, 'report.json');
    expect(await run(['--grep', 'plain_text,done_sentinel', '--json', file], { io: c.io })).toBe(0);
    expect(c.out()).toBe(['done_sentinel: not expressible: steps[3].raw: "data: [DONE]\\n\\n" is not something the adk-js server writes', 'plain_text: identical', 'fidelity: 1 identical, 0 different, 1 not expressible of 2'].join('\n'));
    const report = JSON.parse(readFileSync(file, 'utf8')) as { summary: unknown };
    expect(report.summary).toEqual({ identical: 1, different: 0, notExpressible: 1, total: 2 });
  });

  it('prints each mode of a different scenario with its first difference and exits 1', async () => {
    // --strict compares the user event the mock does not store, so every scenario differs there.
    const c = capture();
    expect(await run(['--grep', 'plain_text', '--mode', 'streaming', '--strict'], { io: c.io })).toBe(1);
    expect(c.out()).toMatch(/^plain_text: different\n {2}streaming: first difference at session\.headers\[2\]\[1\]: mock "\d+", real "\d+" \(\d+ differences in all\)\nfidelity: 0 identical, 1 different, 0 not expressible of 1$/);
  });

  it('names a mode the script cannot be played in beside the identical one', async () => {
    const c = capture();
    expect(await run(['--grep', 'transfer_to_specialist'], { io: c.io })).toBe(0);
    expect(c.out()).toBe([
      'transfer_to_specialist: identical (non-streaming)',
      '  streaming: not expressible: streamed, adk-js calls coordinator again after its transfer (its trailing report closes a step with tool calls) and the script has no step for that call',
      'fidelity: 1 identical, 0 different, 0 not expressible of 1',
    ].join('\n'));
  });

  it('refuses an unknown scenario or mode as a usage error (exit 2), naming the nearest id', async () => {
    const c = capture();
    await expect(run(['--grep', 'plain_txt'], { io: c.io })).rejects.toThrow(new UsageError("--grep plain_txt names no scenario id or tag (did you mean 'plain_text'?)."));
    await expect(run(['--mode', 'both'], { io: c.io })).rejects.toThrow(UsageError);
    expect(commands['fidelity']?.summary).toMatch(/REAL adk-js 2\.0\.0/);
  });
});
