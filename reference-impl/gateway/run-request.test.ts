import { describe, expect, it } from 'vitest';
import { checkRunAgentRequest, modelDump } from './run-request.ts';

const message = { role: 'user', parts: [{ text: 'Cedar Creek' }] };

describe('run-agent-request forwarding', () => {
  it('re-serialises in the model field order with streaming defaulted, as model_dump(by_alias, exclude_none) does', () => {
    expect(modelDump({ newMessage: message, sessionId: 's1', userId: 'u1', appName: 'cedar_creek_briefing' }))
      .toBe('{"appName":"cedar_creek_briefing","userId":"u1","sessionId":"s1","newMessage":{"role":"user","parts":[{"text":"Cedar Creek"}]},"streaming":false}');
  });

  it('drops unknown fields and null optionals, and keeps stateDelta as sent', () => {
    const json = modelDump({ appName: 'a', userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 't', thought: null }] }, streaming: true, stateDelta: { k: null }, invocationId: null, extra: 1 });
    expect(JSON.parse(json)).toEqual({ appName: 'a', userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 't' }] }, streaming: true, stateDelta: { k: null } });
  });

  it('reads snake_case aliases and writes camelCase', () => {
    expect(JSON.parse(modelDump({ app_name: 'a', user_id: 'u', session_id: 's', new_message: message, state_delta: { x: 1 }, invocation_id: 'e-1' })))
      .toEqual({ appName: 'a', userId: 'u', sessionId: 's', newMessage: message, streaming: false, stateDelta: { x: 1 }, invocationId: 'e-1' });
  });

  it('accepts a valid body and reports its routing fields', () => {
    const checked = checkRunAgentRequest({ appName: 'a', userId: 'u', sessionId: 's', newMessage: message, streaming: true });
    expect(checked).toMatchObject({ ok: true, fields: { appName: 'a', userId: 'u', sessionId: 's' } });
  });

  it('names every missing field by its own path', () => {
    const checked = checkRunAgentRequest({ appName: 'a' });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.issues.map((i) => i.path)).toEqual(['/userId', '/sessionId', '/newMessage']);
    expect(checked.reason).toBe("/userId: must have required property 'userId'");
  });

  it('names a wrong type and an empty parts array', () => {
    const checked = checkRunAgentRequest({ appName: 7, userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [] } });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.issues).toEqual(expect.arrayContaining([
      { path: '/appName', message: 'must be string' },
      { path: '/newMessage/parts', message: 'must NOT have fewer than 1 items' },
    ]));
  });

  it('refuses a body that is not an object', () => {
    for (const body of [null, [], 'x', 3]) expect(checkRunAgentRequest(body).ok).toBe(false);
  });
});
