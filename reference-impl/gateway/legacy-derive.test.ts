import { describe, expect, it } from 'vitest';
import { createLegacyDeriver } from './legacy-derive.ts';

const ev = (fields: Record<string, unknown>) => JSON.stringify({ invocationId: 'e-1', id: 'E1', timestamp: 1, actions: {}, ...fields });

describe('legacy event derivation', () => {
  it('derives agent_status for authors, tool calls, tool results and transfers', () => {
    const d = createLegacyDeriver('s1');
    const out = [
      ...d.feed(ev({ author: 'coordinator', content: { role: 'model', parts: [{ text: 'Delegating.' }, { functionCall: { name: 'burn_analyst', args: {} } }] } })),
      ...d.feed(ev({ author: 'coordinator', content: { role: 'user', parts: [{ functionResponse: { name: 'burn_analyst', response: {} } }] } })),
      ...d.feed(ev({ author: 'coordinator', content: { role: 'model', parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName: 'trail_assessor' } } }] } })),
      ...d.feed(ev({ author: 'coordinator', actions: { transferToAgent: 'trail_assessor' } })),
    ];
    expect(out.map((e) => [e.event, e.data.agent, e.data.status ?? e.data.content])).toEqual([
      ['agent_status', 'coordinator', 'active'],
      ['agent_status', 'coordinator', 'calling_tool'],
      ['research_update', 'coordinator', 'Delegating.'],
      ['agent_status', 'coordinator', 'tool_complete'],
      ['agent_status', 'coordinator', 'transferring'],
      ['agent_status', 'coordinator', 'transferred'],
    ]);
    expect(out[4]?.data.target).toBe('trail_assessor');
  });

  it('marks partial text and reports the last final text as the report', () => {
    const d = createLegacyDeriver('s1');
    const updates = [
      ...d.feed(ev({ author: 'a', partial: true, content: { parts: [{ text: 'Cedar ' }] } })),
      ...d.feed(ev({ author: 'a', partial: true, content: { parts: [{ text: 'Creek' }] } })),
      ...d.feed(ev({ author: 'a', partial: false, content: { parts: [{ text: 'Cedar Creek' }, { text: 'hidden', thought: true }] } })),
    ].filter((e) => e.event === 'research_update');
    expect(updates.map((e) => [e.data.content, e.data.partial])).toEqual([['Cedar ', true], ['Creek', true], ['Cedar Creek', false]]);
    expect(d.end({ kind: 'eof' }, 300_000)).toEqual([{ event: 'research_complete', data: { sessionId: 's1', status: 'complete', finalReport: 'Cedar Creek', agent: 'a' } }]);
    expect(d.end({ kind: 'eof' }, 300_000)).toEqual([]);
  });

  it('ends with an error status after an in-stream error frame or an errorCode event', () => {
    const a = createLegacyDeriver('s1');
    expect(a.feed('{"error":"No parts in the newMessage."}')).toEqual([]);
    expect(a.end({ kind: 'eof' }, 300_000)[0]?.data).toMatchObject({ status: 'error', error: 'No parts in the newMessage.' });
    const b = createLegacyDeriver('s1');
    expect(b.feed(ev({ author: 'a', errorCode: '503', errorMessage: 'overloaded' }))[1]?.data).toMatchObject({ status: 'error', errorCode: '503' });
    expect(b.end({ kind: 'eof' }, 300_000)[0]?.data).toMatchObject({ status: 'error', error: '503: overloaded' });
  });

  it('names gateway-side failures in research_complete', () => {
    expect(createLegacyDeriver('s').end({ kind: 'timeout' }, 2000)[0]?.data.error).toBe('Request timeout after 2 seconds');
    expect(createLegacyDeriver('s').end({ kind: 'status', status: 404, detail: 'Session not found: s' }, 1)[0]?.data.error).toBe('ADK upstream error: 404: Session not found: s');
    expect(createLegacyDeriver('s').end({ kind: 'stream-error', message: 'cut' }, 1)[0]?.data.error).toBe('cut');
  });

  it('ignores frames that are not JSON objects', () => {
    const d = createLegacyDeriver('s');
    expect([...d.feed('[DONE]'), ...d.feed('[1]'), ...d.feed('{}'), ...d.feed('"x"')]).toEqual([]);
  });
});
