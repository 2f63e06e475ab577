import { describe, expect, it } from 'vitest';
import { buildAuditProof, readAuditTrail } from './proof-from-audit.ts';

// Seed 000 §3.2's envelope, and §9's flow (classify_damage in trail_assessor).
const envelope = (event_type: string, event_id: string, timestamp: string, payload: Record<string, unknown>, agent = 'trail_assessor') =>
  ({ event_type, event_id, timestamp, correlation_id: 'inv_abc123', agent, session_id: 'sess_xyz', payload });

const flow = [
  envelope('tool_invocation', 'evt_001', '2025-12-27T10:30:00.000Z', { tool_name: 'classify_damage', parameters: { fire_id: 'cedar-creek-2022' } }),
  envelope('data_load', 'evt_002', '2025-12-27T10:30:01.000Z', { data_source_label: 'Cedar Creek field assessment 2022-10-25', data_confidence: 0.75, data_tier: 3, fire_id: 'cedar-creek-2022' }),
  envelope('reasoning_step', 'evt_003', '2025-12-27T10:30:02.000Z', { description: 'Loaded 5 trails with 15 total damage points' }),
  envelope('tool_response', 'evt_004', '2025-12-27T10:30:05.234Z', { tool_name: 'classify_damage', skill_id: 'damage-classification', status: 'success', confidence: 0.9, data_sources: ['Cedar Creek field assessment 2022-10-25'], reasoning_steps: ['WL-001: Severity 5 classified as TYPE_IV'] }),
];

describe('proof layer from audit metadata (seed 000 §3.3)', () => {
  it('rule 1: confidence equals the tool_response confidence', () => {
    expect(buildAuditProof(readAuditTrail(flow), 'trail_assessor')?.confidence).toBe(0.9);
  });

  it('rule 2: data_load gives a citation with rule 2 and seed 002 names; data_sources of the tool add none twice', () => {
    expect(buildAuditProof(readAuditTrail(flow), 'classify_damage')?.citations).toEqual([
      { source: 'Cedar Creek field assessment 2022-10-25', source_type: 'RANGER-Fixtures', reference_id: 'cedar-creek-2022', id: 'cedar-creek-2022', uri: 'ranger://fixtures/cedar-creek-2022', excerpt: 'Cedar Creek field assessment 2022-10-25' },
    ]);
  });

  it('rule 3: reasoning_step descriptions and the tool reasoning steps, in timestamp order', () => {
    const shuffled = [flow[3], flow[0], flow[2], flow[1]];
    expect(buildAuditProof(readAuditTrail(shuffled))?.reasoning).toEqual(['Loaded 5 trails with 15 total damage points', 'WL-001: Severity 5 classified as TYPE_IV']);
  });

  it('rule 4: the ledger lists the data_load input with its own score and tier, and recommendation equals analysis (§2.2D)', () => {
    expect(buildAuditProof(readAuditTrail(flow))?.ledger).toEqual({
      inputs: [{ source: 'Cedar Creek field assessment 2022-10-25', confidence: 0.75, tier: 3, notes: 'From data_load' }],
      analysis_confidence: 0.9,
      recommendation_confidence: 0.9,
    });
  });

  it('§2.2D: without data_load events each tool data source is an input at the tool confidence, tier by score', () => {
    const trail = readAuditTrail([{ event_type: 'tool_response', timestamp: '2025-12-27T10:30:05Z', agent: 'trail_assessor', tool: 'classify_damage', confidence: 0.9, data_sources: ['Cedar Creek field assessment'], reasoning_chain: ['Loaded 5 trails', 'WL-001: TYPE_IV'] }]);
    const proof = buildAuditProof(trail);
    expect(proof?.ledger?.inputs).toEqual([{ source: 'Cedar Creek field assessment', confidence: 0.9, tier: 1, notes: 'From classify_damage execution' }]);
    expect(proof?.reasoning).toEqual(['Loaded 5 trails', 'WL-001: TYPE_IV']);
    expect(proof?.citations.map((c) => c.source)).toEqual(['Cedar Creek field assessment']);
  });

  it('a tool_error gives confidence 0.0 (seed 000 §3.1)', () => {
    const trail = readAuditTrail([flow[0], envelope('tool_error', 'evt_009', '2025-12-27T10:30:03Z', { tool_name: 'classify_damage', error: 'fixture missing' })]);
    expect(buildAuditProof(trail, 'classify_damage')?.confidence).toBe(0);
  });

  it('a trail without a tool outcome for the scope does not speak for it', () => {
    expect(buildAuditProof(readAuditTrail(flow.slice(0, 3)), 'trail_assessor')).toBeUndefined();
    expect(buildAuditProof(readAuditTrail(flow), 'burn_analyst')).toBeUndefined();
  });

  it('a whole trail with differing tool confidences states no overall score, and says why', () => {
    const other = envelope('tool_response', 'evt_010', '2025-12-27T10:31:00Z', { tool_name: 'assess_severity', status: 'success', confidence: 0.92 }, 'burn_analyst');
    const proof = buildAuditProof(readAuditTrail([...flow, other]));
    expect(proof?.confidence).toBeUndefined();
    expect(proof?.whyNone).toMatch(/2 tool outcomes with different confidences/);
  });

  it('entries that are not audit events are skipped, and non-array metadata reads as empty', () => {
    expect(readAuditTrail([null, 3, 'x', { no: 'type' }, flow[0]])).toHaveLength(1);
    expect(readAuditTrail({ event_type: 'tool_response' })).toEqual([]);
  });
});

describe('which audit entries speak for a plain tool', () => {
  it("a tool's window is its invocation to its outcome: another tool's data_load of the same agent is not cited", () => {
    const other = envelope('data_load', 'evt_020', '2025-12-27T10:40:00.000Z', { data_source_label: 'Sentinel-2 scene', data_confidence: 0.95, data_tier: 1 });
    const proof = buildAuditProof(readAuditTrail([...flow, other]), 'classify_damage');
    expect(proof?.citations.map((c) => c.source)).toEqual(['Cedar Creek field assessment 2022-10-25']);
  });
});
