import { describe, expect, it } from 'vitest';
import { classifyData, classifyPayload } from './frames.ts';

describe('classifying a data field', () => {
  it('an ADK event is an event frame', () => {
    const frame = classifyData('{"invocationId":"e-1","author":"coordinator","id":"B8EWHkk1"}');
    expect(frame).toMatchObject({ kind: 'event', event: { author: 'coordinator' } });
  });

  it.each([
    ['adk-js compact', '{"error":"No parts in the newMessage."}'],
    ['adk-python json.dumps', '{"error": "No parts in the new_message."}'],
    ['python structured (Gen D)', '{"error": "ValueError: x", "error_details": {"error_type": "ValueError", "error_message": "x", "timestamp": 1.5}}'],
    ['gateway TIMEOUT', '{"error":"Request timeout after 300 seconds","error_code":"TIMEOUT","timestamp":1729350300.123}'],
    ['gateway status', '{"error":"ADK upstream error: 500","status_code":500,"detail":"Internal Server Error","timestamp":1}'],
    ['gateway STREAM_ERROR', '{"error":"Stream error description","error_code":"STREAM_ERROR","timestamp":1}'],
  ])('%s is an error frame', (_name, data) => {
    expect(classifyData(data).kind).toBe('error');
  });

  it('adk-js `data: {}` (a thrown non-Error) is an error frame', () => {
    expect(classifyData('{}')).toEqual({ kind: 'error', error: {}, data: '{}' });
  });

  it('a Gen A unescaped error line is an error frame with its raw message, marked legacy', () => {
    expect(classifyData('{"error": "bad "quote" here"}')).toEqual({ kind: 'error', error: { error: 'bad "quote" here' }, data: '{"error": "bad "quote" here"}', legacy: true });
  });

  it('[DONE] is the sentinel, with or without surrounding spaces', () => {
    expect(classifyData('[DONE]').kind).toBe('done');
    expect(classifyData(' [DONE] ').kind).toBe('done');
  });

  it('invalid JSON is an invalid frame that says why', () => {
    const frame = classifyData('{"author": "coor');
    expect(frame.kind).toBe('invalid');
    expect(frame.kind === 'invalid' && frame.reason).toMatch(/^invalid JSON: /);
  });

  it.each([['[]', 'an array'], ['null', 'null'], ['42', 'number'], ['"text"', 'string']])('JSON %s is not a frame payload (%s)', (data, what) => {
    const frame = classifyData(data);
    expect(frame.kind).toBe('invalid');
    expect(frame.kind === 'invalid' && frame.reason).toContain(what);
  });

  it('an already parsed payload classifies the same way', () => {
    expect(classifyPayload({ error: 'x' }).kind).toBe('error');
    expect(classifyPayload({ author: 'a' }).kind).toBe('event');
    expect(classifyPayload([1]).kind).toBe('invalid');
  });
});
