/**
 * packages/agent-common/agent_common/audit_bridge.py of seed 000 §2.2A, as a TypeScript team writes
 * it for a Node ADK service, with §8 decision 2's clean-up step. Calibration material (README.md in
 * this folder): its defects are kept on purpose.
 */

// Seed 000 §2.2A "Key Classes".
export interface ToolInvocationEvent {
  event_type?: 'tool_invocation';
  timestamp: string;
  agent: string;
  tool: string;
  parameters: Record<string, unknown>;
  invocation_id: string;
  session_id: string;
}

export interface ToolResponseEvent {
  event_type?: 'tool_response';
  timestamp: string;
  agent: string;
  tool: string;
  status: string;
  confidence: number;
  data_sources: string[];
  reasoning_chain: string[];
  invocation_id: string;
}

type AuditRecord = (ToolInvocationEvent | ToolResponseEvent) & { event_type: string };

/** Buffers audit events by invocationId for SSE injection. */
export class AuditEventBridge {
  private readonly buffers = new Map<string, AuditRecord[]>();

  recordToolInvocation(event: ToolInvocationEvent): void {
    this.append({ ...event, event_type: 'tool_invocation' });
  }

  recordToolResponse(event: ToolResponseEvent): void {
    this.append({ ...event, event_type: 'tool_response' });
  }

  getAuditTrail(invocationId: string): AuditRecord[] {
    return this.buffers.get(invocationId) ?? [];
  }

  clearInvocation(invocationId: string): void {
    this.buffers.delete(invocationId);
  }

  /** Seed 000 §8 decision 2: `if event.partial == False:  # Final event` → clear_invocation. */
  observeEvent(event: { invocationId?: string; partial?: boolean }): void {
    if (event.partial == false && event.invocationId) {
      this.clearInvocation(event.invocationId);
    }
  }

  private append(record: AuditRecord): void {
    const trail = this.buffers.get(record.invocation_id);
    if (trail) trail.push(record);
    else this.buffers.set(record.invocation_id, [record]);
  }
}

// Seed 000 §2.2B: "get_audit_bridge()", the session-scoped singleton.
let bridge: AuditEventBridge | undefined;
export function getAuditBridge(): AuditEventBridge {
  bridge ??= new AuditEventBridge();
  return bridge;
}

/** The kit's module contract asks for one bridge per run (docs/audit-bridge-contract.md). */
export const createAuditBridge = () => new AuditEventBridge();
