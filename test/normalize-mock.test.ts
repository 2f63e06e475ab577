/**
 * The reference turn runner and normaliser against the real mock: every index_reuse_* scenario's
 * `expect.blocks` (the expected indices of block starts and tool records) must come out exactly,
 * through runTurn, through POST /normalize/turn, and (for the one scripted as raw bytes) through
 * the normaliser fed the scenario's own stream.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { loadScenarios, type Scenario } from '../scenarios/loader.ts';
import { startMock, type RunningMock } from '../mock-adk/server/start.ts';
import { render } from '../mock-adk/core/render.ts';
import { anthropicToolResult, renderAnthropicCall } from '../mock-adk/core/anthropic.ts';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { readSse } from '../core/sse.ts';
import { validate } from '../schemas/registry.ts';
import { runTurn } from '../reference-impl/turn-runner.ts';
import { createBlockNormalizer, type BlockStreamEvent } from '../reference-impl/block-normalizer.ts';
import normalizeRoute from '../reference-impl/gateway/normalize-route.ts';

const { scenarios } = loadScenarios();
const family = scenarios.filter((s) => s.id.startsWith('index_reuse_'));
const turns = family.filter((s) => s.upstream.kind === 'anthropic-turn');
const byteScripted = family.filter((s) => s.upstream.kind === 'bytes');

let mock: RunningMock;
let gateway: FastifyInstance;
let gatewayUrl = '';

beforeAll(async () => {
  mock = await startMock({ scenarios });
  gateway = Fastify({ forceCloseConnections: true });
  await gateway.register(normalizeRoute, { upstreamUrl: mock.url });
  gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await gateway.close();
  await mock.close();
});

/** The projection `expect.blocks` describes: block starts and tool records, with their index and tool id. */
const blockTypes = new Set(['text_block_start', 'tool_use_start', 'tool_result', 'tool_execution_error']);
function blocksOf(events: BlockStreamEvent[]) {
  return events.filter((e) => blockTypes.has(e.event_type)).map((e) => {
    const toolUseId = e.event_type === 'tool_use_start' ? e.data.tool_id : e.data.tool_use_id;
    return toolUseId === undefined ? { type: e.event_type, index: e.data.index } : { type: e.event_type, index: e.data.index, tool_use_id: toolUseId };
  });
}

/** The expected blocks, with tool_use_id only where the scenario names it (it may leave a start's id out). */
function expected(scenario: Scenario, actual: ReturnType<typeof blocksOf>) {
  return (scenario.expect?.blocks ?? []).map((b, i) => (b.tool_use_id === undefined && actual[i] && 'tool_use_id' in actual[i] ? { ...b, tool_use_id: actual[i].tool_use_id } : b));
}

const messageOf = (s: Scenario) => s.request?.message;

/**
 * Tool records of one message in tool_use_id order. The runner executes a message's tools one by
 * one in block order (deterministic output); a scenario may script them in another completion
 * order (parallel tools), and seed 003 fixes their indices, not their order.
 */
type Block = { type: unknown; index: unknown; tool_use_id?: unknown };
function toolRunsSorted<T extends Block>(blocks: T[]): T[] {
  const out: T[] = [];
  let run: T[] = [];
  const isTool = (b: T) => b.type === 'tool_result' || b.type === 'tool_execution_error';
  const flush = () => { out.push(...run.sort((a, b) => String(a.tool_use_id).localeCompare(String(b.tool_use_id)))); run = []; };
  for (const b of blocks) { if (isTool(b)) run.push(b); else { flush(); out.push(b); } }
  flush();
  return out;
}

describe('index_reuse_* scenarios on the real mock', () => {
  test('the family is present: at least the seed flow and the three-message turn', () => {
    expect(turns.map((s) => s.id)).toEqual(expect.arrayContaining(['index_reuse_seed_flow', 'index_reuse_turn']));
  });

  test.each(turns.map((s) => [s.id, s] as const))('runTurn gives %s its expected block indices', async (_id, scenario) => {
    const events: BlockStreamEvent[] = [];
    const outcome = await runTurn({ upstreamUrl: mock.url, scenarioModel: scenario.id, message: messageOf(scenario), onEvent: (e) => events.push(e) });
    expect(scenario.expect?.outcome).toBe('complete');
    expect(outcome).toEqual({ outcome: 'complete', calls: (scenario.upstream as { messages: unknown[] }).messages.length, stopReason: 'end_turn' });
    expect(events.filter((e) => e.event_type === 'error')).toEqual([]);
    for (const e of events) expect(validate('block-stream-event', e).errors).toEqual([]);
    const actual = blocksOf(events);
    expect(toolRunsSorted(actual)).toEqual(toolRunsSorted(expected(scenario, actual)));
    expect(events.at(-1)?.event_type).toBe('stream_end');
  });

  test('POST /normalize/turn streams the seed flow with indices 0, 1, 2', async () => {
    const scenario = turns.find((s) => s.id === 'index_reuse_seed_flow')!;
    const res = await fetch(`${gatewayUrl}/normalize/turn`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: scenario.id }) });
    expect(res.status).toBe(200);
    const events = readSse(new Uint8Array(await res.arrayBuffer())).frames.map((f) => JSON.parse(f.data) as BlockStreamEvent);
    const actual = blocksOf(events);
    expect(actual).toEqual(expected(scenario, actual));
    expect(actual.map((b) => b.index)).toEqual([0, 1, 1, 2]);
  });

  test.each(byteScripted.map((s) => [s.id, s] as const))('the normaliser refuses the stray delta of %s and keeps the known block', (_id, scenario) => {
    const plan = render(scenario, { dialect: 'adk-python', streaming: true, appName: scenario.id, userId: 'u1', sessionId: 's1' });
    const bytes = Buffer.concat(plan.chunks.map((c) => Buffer.from(c.bytes)));
    const events: BlockStreamEvent[] = [];
    const normalizer = createBlockNormalizer({ onEvent: (e) => events.push(e) });
    for (const frame of readSse(bytes).frames) normalizer.feed(JSON.parse(frame.data));
    normalizer.end();
    const actual = blocksOf(events);
    expect(actual).toEqual(expected(scenario, actual));
    expect(events.filter((e) => e.event_type === 'error').map((e) => [e.data.reason, e.data.llm_index])).toEqual([['unknown_block_index', 3]]);
    expect(events.filter((e) => e.event_type === 'text_delta').map((e) => [e.data.index, e.data.text])).toEqual([[0, 'Cedar Creek has '], [0, '5 damaged trails.']]);
  });
});

/** A scenario's whole turn as the normaliser's input: each call's events, then its tools' records in block order. */
function turnInputs(scenario: Scenario): unknown[] {
  const inputs: unknown[] = [];
  const count = (scenario.upstream as { messages: unknown[] }).messages.length;
  for (let call = 0; call < count; call++) {
    const frames = renderAnthropicCall(scenario, call).frames.map((f) => JSON.parse(f.data) as { type: string; content_block?: { type: string; id?: string } });
    inputs.push(...frames);
    for (const f of frames) {
      if (f.type !== 'content_block_start' || f.content_block?.type !== 'tool_use') continue;
      const id = f.content_block.id!;
      const { status, json } = anthropicToolResult(scenario, id);
      inputs.push(status === 200 && json.isError !== true ? { type: 'tool_result', tool_use_id: id, content: json.content } : { type: 'tool_execution_error', tool_use_id: id, error: String(json.error ?? json.content) });
    }
  }
  return inputs;
}

describe('adk-conformance normalize on the scenario turns', () => {
  test('the stdio filter writes exactly what the in-process normaliser emits, for every index_reuse turn', async () => {
    const inputs = turns.map(turnInputs);
    const inProcess = inputs.map((turn) => {
      const out: BlockStreamEvent[] = [];
      const n = createBlockNormalizer({ onEvent: (e) => out.push(e) });
      for (const input of turn) n.feed(input);
      n.end();
      return out;
    });
    const bin = fileURLToPath(new URL('../bin/adk-conformance.js', import.meta.url));
    for (const [i, turn] of inputs.entries()) {
      const child = spawn(process.execPath, [bin, 'normalize'], { stdio: ['pipe', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => { stdout += d.toString('utf8'); });
      child.stdin.end(turn.map((e) => JSON.stringify(e)).join('\n') + '\n');
      const [code] = await once(child, 'close') as [number];
      expect(code).toBe(0);
      expect(stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(inProcess[i]);
      expect(blocksOf(inProcess[i]!).length).toBeGreaterThan(0);
    }
  });
});
