/**
 * CLI-REQ-003 judges a body by the request model of the server the run targets (request.ts):
 * what that server reads as the given run passes, whatever key spelling it accepts; `streaming`
 * is the client's choice; a body the server loses fields of, or refuses, fails.
 */
import { describe, expect, it } from 'vitest';
import { checkRequest, checkRunCount, type JournalledRequest } from './request.ts';

const given = { appName: 'plain_text', userId: 'u1', sessionId: 's1', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, streaming: false };
const snake = { app_name: 'plain_text', user_id: 'u1', session_id: 's1', new_message: { role: 'user', parts: [{ text: 'hi' }] } };
const post = (body: unknown): JournalledRequest[] => [{ method: 'POST', url: '/run_sse', headers: { accept: 'text/event-stream', 'content-type': 'application/json' }, body: JSON.stringify(body) }];
const req003 = (body: unknown, dialect?: string) => checkRequest('s', given, post(body), dialect).find((o) => o.requirement === 'CLI-REQ-003')!;

describe('CLI-REQ-003', () => {
  it.each(['adk-js', 'adk-python', 'adk-python@2.x', 'adk-go@2.0.0'])('%s: the camelCase body passes, with streaming true, false or absent', (dialect) => {
    for (const streaming of [true, false, undefined]) expect(req003({ ...given, streaming }, dialect).status).toBe('passed');
  });

  it.each(['adk-python', 'adk-python@1.x-genC', 'adk-python@2.x'])('%s reads snake_case keys (populate_by_name): passed', (dialect) => {
    expect(req003(snake, dialect).status).toBe('passed');
  });

  it('adk-js ignores snake_case keys: the run it reads names no app, and the finding says why', () => {
    const o = req003(snake, 'adk-js');
    expect(o.status).toBe('failed');
    expect(o.findings[0]).toMatchObject({ code: 'body-field', path: 'request.body/appName' });
    expect(o.findings[0]?.message).toContain('the body has app_name; adk-js@2.0 reads camelCase keys only');
  });

  it('adk-go refuses an unknown key (DisallowUnknownFields)', () => {
    const o = req003(snake, 'adk-go@2.0.0');
    expect(o.findings.map((f) => f.code)).toEqual(['refused-by-server']);
    expect(o.findings[0]?.message).toMatch(/HTTP 400: failed to decode request body: failed to decode request: json: unknown field "app_name"/);
  });

  it('a message with role model fails on every server', () => {
    for (const dialect of ['adk-js', 'adk-python', 'adk-go@2.0.0']) {
      expect(req003({ ...given, newMessage: { role: 'model', parts: [{ text: 'hi' }] } }, dialect).findings.map((f) => f.path)).toEqual(['request.body/newMessage']);
    }
  });

  it('without a server (the tap) the body must be the camelCase one every server reads', () => {
    expect(req003(given).status).toBe('passed');
    expect(req003(snake).findings.map((f) => f.code)).toContain('snake-case');
  });

  it('an unknown dialect is a programmer error, thrown with the fix', () => {
    expect(() => checkRequest('s', given, post(given), 'adk-rust')).toThrow(/unknown dialect "adk-rust"; pass a scenario's dialect/);
  });
});

describe('CLI-REQ-003: keys the server does not read (issue 29 §1)', () => {
  it.each(['adk-js', 'adk-python', 'adk-python@2.x'])('%s: `state` where the server reads stateDelta is an unknown key, and the finding says so', (dialect) => {
    const o = req003({ ...given, state: { region: 'north' } }, dialect);
    expect(o.findings.map((f) => [f.code, f.path])).toEqual([['unknown-key', 'request.body/state']]);
    expect(o.findings[0]?.message).toContain('it reads the context as stateDelta');
  });

  it('adk-go refuses the same body outright (DisallowUnknownFields)', () => {
    expect(req003({ ...given, state: {} }, 'adk-go@2.0.0').findings.map((f) => f.code)).toEqual(['refused-by-server']);
  });

  it('keys seed 004 lists pass even where the server ignores them (invocationId on adk-js), and adk-python 2.x reads custom_metadata', () => {
    expect(req003({ ...given, invocationId: 'e-1', stateDelta: {} }, 'adk-js').status).toBe('passed');
    expect(req003({ ...given, custom_metadata: { a: 1 }, function_call_event_id: 'f' }, 'adk-python@2.x').status).toBe('passed');
    expect(req003({ ...given, customMetadata: { a: 1 } }, 'adk-python@1.x-genC').findings.map((f) => f.code)).toEqual(['unknown-key']);
  });
});

describe('CLI-REQ-004: one run, one POST (adk-python #4506)', () => {
  const run = post(given)[0]!;
  it('one POST passes; a session request beside it is not a run', () => {
    expect(checkRunCount('s', [{ ...run, method: 'POST', url: '/apps/a/users/u/sessions/s' }, run]).status).toBe('passed');
  });
  it('a second POST fails, and says when the first stream was still open', () => {
    const o = checkRunCount('s', [run, run], [true]);
    expect(o.status).toBe('failed');
    expect(o.findings[0]).toMatchObject({ code: 'run-reposted', expected: 1, actual: 2 });
    expect(o.findings[0]?.message).toContain('while its stream was still open');
  });
  it('no POST at all is untested here (CLI-REQ-001 fails it)', () => {
    const o = checkRunCount('s', []);
    expect(o.status).toBe('untested');
    expect(checkRequest('s', given, []).map((x) => [x.requirement, x.findings.map((f) => f.code)])).toEqual([['CLI-REQ-001', ['run-requests']], ['CLI-REQ-003', ['run-requests']]]);
  });
});
