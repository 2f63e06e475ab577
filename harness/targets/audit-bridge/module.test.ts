import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuditBridge } from '../../../reference-impl/audit-bridge.ts';
import { bridgeMethods, loadAuditBridgeModule } from './module.ts';

const dir = mkdtempSync(join(tmpdir(), 'adk-audit-module-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the audit bridge module shapes', () => {
  it('takes the reference as the kit\'s shape, with its own clearing step and count', () => {
    const b = bridgeMethods(createAuditBridge());
    expect(b?.shape).toBe('kit');
    expect([typeof b?.observeEvent, typeof b?.stats]).toEqual(['function', 'function']);
  });

  it('takes seed 000 §2.2A\'s four methods, in snake_case or camelCase, as the seed\'s shape, and files each type with its own recorder', () => {
    const calls: string[] = [];
    class AuditEventBridge {
      record_tool_invocation(e: { event_id: string }) { calls.push(`invocation ${e.event_id}`); }
      record_tool_response(e: { event_id: string }) { calls.push(`response ${e.event_id}`); }
      get_audit_trail() { return []; }
      clear_invocation() {}
    }
    const seed = bridgeMethods(new AuditEventBridge());
    expect(seed?.shape).toBe('seed');
    expect(seed?.observeEvent).toBeUndefined();
    seed?.record({ event_type: 'tool_invocation', event_id: 'a' });
    seed?.record({ event_type: 'tool_response', event_id: 'b' });
    expect(calls).toEqual(['invocation a', 'response b']);
    const camel = bridgeMethods({ recordToolInvocation() {}, recordToolResponse() {}, getAuditTrail: () => [], clearInvocation() {}, observeEvent() {} });
    expect([camel?.shape, typeof camel?.observeEvent]).toEqual(['seed', 'function']);
  });

  it('refuses a bridge of neither shape before anything runs, naming both', async () => {
    expect(bridgeMethods({ record_tool_invocation() {}, get_audit_trail: () => [] })).toBeUndefined();
    const file = join(dir, 'neither.mjs');
    writeFileSync(file, 'export const createAuditBridge = () => ({ record_tool_invocation() {}, get_audit_trail() { return []; } });\n');
    await expect(loadAuditBridgeModule(file)).rejects.toThrow(/returned an object with record_tool_invocation, get_audit_trail; export createAuditBridge\(options\) returning \{record, getAuditTrail, clearInvocation, observeEvent, stats\} \(the kit's shape\) or \{record_tool_invocation, record_tool_response, get_audit_trail, clear_invocation\} \(seed 000 §2\.2A's shape\)/);
  });
});
