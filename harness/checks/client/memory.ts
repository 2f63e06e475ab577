/**
 * CLI-MEM-001 (issue 30 §2 "Memory across runs"): a client reused for every run (one client
 * object, one session process) keeps less than 512 bytes of memory per finished stream, judged by
 * the statistics every memory probe shares (harness/checks/memory-retention.ts, GW-MEM-002's): a
 * module's V8 heap after a forced collection by its slope, a session process's RSS by its floors.
 */
import type { CheckOutcome } from '../../model.ts';
import type { MemoryObservation } from '../memory-retention.ts';
import { retentionOutcomes } from '../transformer/memory.ts';

export const clientMemoryId = 'CLI-MEM-001';

/** `instance`: what read the streams ("one session process", "one client object"). */
export function checkClientRetention(probe: string, instance: string, o: MemoryObservation | { error: string }): CheckOutcome[] {
  return retentionOutcomes({ requirement: clientMemoryId, who: 'the client', unfinished: 'gave no end record', judgedBy: 'CLI-OUT-001' }, probe, instance, o);
}
