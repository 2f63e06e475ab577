/**
 * Mutant: seed 000 §2.2A's shape in TypeScript (record_tool_invocation, record_tool_response,
 * get_audit_trail, clear_invocation), whose get_audit_trail answers the trail of the invocation
 * recorded to last, not the one asked for.
 */
type AuditEvent = Record<string, unknown> & { invocation_id: string };

class AuditEventBridge {
  private readonly buffers = new Map<string, AuditEvent[]>();
  private last: string | undefined;

  record_tool_invocation(event: AuditEvent): void { this.record(event); }
  record_tool_response(event: AuditEvent): void { this.record(event); }
  get_audit_trail(invocationId: string): AuditEvent[] {
    // The defect: the invocation asked for is ignored.
    return [...(this.buffers.get(this.last ?? invocationId) ?? [])];
  }
  clear_invocation(invocationId: string): void { this.buffers.delete(invocationId); }

  private record(event: AuditEvent): void {
    this.buffers.set(event.invocation_id, [...(this.buffers.get(event.invocation_id) ?? []), event]);
    this.last = event.invocation_id;
  }
}

export function createAuditBridge(): AuditEventBridge {
  return new AuditEventBridge();
}
