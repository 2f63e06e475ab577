/**
 * The tap's report collector keeps a failing run's timeline: every frame up to its cap, in order,
 * clean frames by index and kind, and the frame that broke a rule with the rule's id and code.
 */
import { describe, expect, it } from 'vitest';
import { createTapCore } from './core.ts';
import { createReportCollector } from './report.ts';
import { jsFinalFrame, jsHeaders } from './test-support.ts';

const { event } = jsFinalFrame();
const body = JSON.stringify({ appName: 'plain_text', userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'Brief me' }] }, streaming: false });

describe('the report collector', () => {
  it('gives a failing run its timeline: clean frames by index and kind, the bad frame with its finding, then the end', () => {
    const collector = createReportCollector({ role: 'adk', upstream: 'http://127.0.0.1:1' });
    const core = createTapCore({ role: 'adk', observers: [collector] });
    const run = core.startRun({ method: 'POST', url: '/run_sse', headers: [['Content-Type', 'application/json'], ['Accept', 'text/event-stream']] });
    run.requestBody(Buffer.from(body), false);
    run.responseHead(200, jsHeaders);
    const partial = { ...event, partial: true };
    run.chunk(Buffer.from(`data: ${JSON.stringify(partial)}\n\n`), 1);
    run.chunk(Buffer.from(`id: 7\ndata: ${JSON.stringify(event)}\n\n`), 2);
    run.end('eof');
    const result = collector.result();
    expect(result?.verdict).toBe('MUST-compliant'); // ADK-SSE-002 is a SHOULD
    const summaries = result?.scenarios[0]?.timeline.map((e) => `${e.kind} ${e.summary}`) ?? [];
    expect(summaries.filter((s) => s.startsWith('frame '))).toEqual(['frame frame[0] event', 'frame frame[1] event: ADK-SSE-002 id-field']);
    expect(summaries[0]).toBe('request POST /run_sse');
    expect(summaries.at(-1)).toMatch(/^end eof, HTTP 200, 2 events/);
  });
});
