import { describe, expect, it } from 'vitest';
import { classifyCall, oneLine, resultText, toolFailure } from './lifecycle.ts';

const call = (name: string, args: Record<string, unknown>) => ({ id: 'adk-1', name, args });

describe('telling a delegation from a tool call', () => {
  it('the AgentTool declaration shape {request: string} is a specialist', () => {
    expect(classifyCall(call('burn_analyst', { request: 'fire_id:cedar-creek-2022' }), undefined)).toBe('specialist');
  });

  it('any other argument shape is a tool', () => {
    expect(classifyCall(call('get_fire_perimeter', { fire_name: 'Cedar Creek' }), undefined)).toBe('tool');
    expect(classifyCall(call('search', { request: 'x', limit: 3 }), undefined)).toBe('tool');
    expect(classifyCall(call('search', { request: 3 }), undefined)).toBe('tool');
  });

  it('transfer_to_agent is a transfer in both dialects', () => {
    expect(classifyCall(call('transfer_to_agent', { agentName: 'trail_assessor' }), undefined)).toBe('transfer');
    expect(classifyCall(call('transfer_to_agent', { agent_name: 'trail_assessor' }), new Set())).toBe('transfer');
  });

  it('a configured list is authoritative', () => {
    const list = new Set(['nepa_advisor']);
    expect(classifyCall(call('nepa_advisor', { project: 'x' }), list)).toBe('specialist');
    expect(classifyCall(call('burn_analyst', { request: 'x' }), list)).toBe('tool');
  });
});

describe('reading function responses', () => {
  it("adk-js's thrown-tool response is a failure; a normal result is not", () => {
    expect(toolFailure({ error: "Error in tool 'fetch_mtbs_severity': MTBS service unavailable (HTTP 503)" })).toMatch(/^Error in tool/);
    expect(toolFailure({ result: 'ok' })).toBeUndefined();
    expect(toolFailure('text')).toBeUndefined();
  });

  it('the answer of a specialist is response.result; other shapes are shown as JSON', () => {
    expect(resultText({ result: 'High severity.' })).toBe('High severity.');
    expect(resultText({ acres: 1 })).toBe('{\n  "acres": 1\n}');
  });
});

describe('one-line summaries (seed 002 §2)', () => {
  it('skip headings and elisions, strip Markdown', () => {
    expect(oneLine('### 1. Summary\n...\n**Fire Severity:** high', 'x')).toBe('Fire Severity: high');
    expect(oneLine('- **Close** `WL-001`', 'x')).toBe('Close WL-001');
  });

  it('cut long lines at 160 characters and fall back when there is nothing to say', () => {
    expect(oneLine('a'.repeat(300), 'x')).toHaveLength(160);
    expect(oneLine('\n\n', 'fallback')).toBe('fallback');
  });
});
