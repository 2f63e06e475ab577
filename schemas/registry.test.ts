import { describe, expect, it } from 'vitest';
import { assertValid, formatIssues, schemaDocument, schemaNames, validate, type SchemaRef } from './registry.ts';

const briefing = { event_id: 'e1', correlation_id: 'c1', type: 'INSIGHT', source_agent: 'burn_analyst', content: { summary: 'Burn severity' } };

describe('validate', () => {
  it('returns valid with no errors for a conforming value', () => {
    expect(validate('agent-briefing-event', briefing)).toEqual({ valid: true, errors: [] });
  });

  it('reports every error, each with a JSON pointer path, keyword, message and params', () => {
    const result = validate('agent-briefing-event', { ...briefing, type: 'PROGRESS', content: {}, proof_layer: { confidence: 2 } });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual(expect.arrayContaining([
      { path: '/type', keyword: 'enum', message: 'must be equal to one of the allowed values ("INSIGHT", "ALERT", "ACTION", "STATUS")', params: { allowedValues: ['INSIGHT', 'ALERT', 'ACTION', 'STATUS'] } },
      { path: '/content', keyword: 'required', message: "must have required property 'summary'", params: { missingProperty: 'summary' } },
      { path: '/proof_layer/confidence', keyword: 'maximum', message: 'must be <= 1', params: { comparison: '<=', limit: 1 } },
    ]));
    expect(result.errors).toHaveLength(3);
  });

  it('uses the empty pointer for the root', () => {
    const { errors } = validate('agent-briefing-event', 'not an object');
    expect(errors.map((e) => e.path)).toEqual(['']);
  });

  it('validates against a definition named by a JSON pointer', () => {
    expect(validate('block-stream-event#/definitions/anthropicEvent', { type: 'message_stop' }).valid).toBe(true);
    expect(validate('block-stream-event', { type: 'message_stop' }).valid).toBe(false);
    expect(validate('sse-error-frame#/definitions/gatewayStreamError', { error: 'x', error_code: 'STREAM_ERROR', timestamp: 1 }).valid).toBe(true);
  });

  it('reports a failure shared by both adk-event dialects once', () => {
    const event = { invocationId: 'e-1', author: 'a', id: 'B8EWHkk1', timestamp: 1795318500511, actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} }, longRunningToolIds: [], partial: 'yes' };
    const partialIssues = validate('adk-event', event).errors.filter((e) => e.path === '/partial');
    expect(partialIssues).toHaveLength(1);
  });

  it('throws a TypeError listing the known schemas for an unknown name', () => {
    expect(() => validate('adk-evnt' as SchemaRef, {})).toThrow(/unknown schema 'adk-evnt'; known schemas: adk-event, agent-briefing-event/);
  });

  it('throws a TypeError listing the definitions for an unknown pointer', () => {
    expect(() => validate('block-stream-event#/definitions/nope', {})).toThrow(/has no '#\/definitions\/nope'; its definitions are: .*#\/definitions\/anthropicEvent/);
  });

  it('validating the same value twice gives the same result (no state left from the first call)', () => {
    const first = validate('report', {});
    const second = validate('report', {});
    expect(second).toEqual(first);
  });
});

describe('assertValid', () => {
  it('returns for a valid value', () => {
    expect(() => assertValid('agent-briefing-event', briefing, 'the briefing')).not.toThrow();
  });

  it('throws a TypeError naming the value, the schema and the first failing paths', () => {
    expect(() => assertValid('agent-briefing-event', { ...briefing, type: 'X', content: {} }, 'briefing #3'))
      .toThrow(new TypeError("briefing #3 is not a valid agent-briefing-event (schemas/agent-briefing-event.schema.json): /type must be equal to one of the allowed values (\"INSIGHT\", \"ALERT\", \"ACTION\", \"STATUS\"); /content must have required property 'summary'"));
  });

  it('works with a definition pointer', () => {
    expect(() => assertValid('block-stream-event#/definitions/anthropicEvent', { type: 'ping' }, 'llm event')).not.toThrow();
    expect(() => assertValid('block-stream-event#/definitions/anthropicEvent', { type: 'pong' }, 'llm event')).toThrow(TypeError);
  });
});

describe('formatIssues', () => {
  it('shows at most the given number of issues and counts the rest', () => {
    const issues = Array.from({ length: 7 }, (_, i) => ({ path: `/a/${i}`, message: 'must be string', keyword: 'type', params: {} }));
    expect(formatIssues(issues, 2)).toBe('/a/0 must be string; /a/1 must be string; and 5 more');
    expect(formatIssues([{ path: '', message: 'must be object', keyword: 'type', params: {} }])).toBe('(root) must be object');
  });
});

describe('schemaDocument', () => {
  it('returns each parsed schema with its $id', () => {
    for (const name of schemaNames) expect(schemaDocument(name).$id).toBe(`https://adk-conformance.dev/schemas/${name}.schema.json`);
  });
});
