/**
 * Hand-built RunResults for the reporter, verdict and merge tests: realistic enough to exercise
 * every branch (each level, each status, proven and unproven, timelines, findings with
 * expected/actual/replay), independent of the registry and runner written in parallel.
 */
import type { Finding, Level, Part, RequirementResult, RequirementStatus, RunResult, ScenarioResult, SpecSource } from '../model.ts';
import { tally } from '../verdict.ts';

type ReqInput = { id: string; level: Level; status: RequirementStatus; part?: Part; provenBy?: string[]; scenarios?: string[]; findings?: Finding[]; reason?: string; title?: string; source?: SpecSource };

export function req(input: ReqInput): RequirementResult {
  return {
    id: input.id,
    title: input.title ?? `${input.id} holds`,
    level: input.level,
    source: input.source ?? { doc: 'seed-004', section: 'Streaming Pattern' },
    quote: 'Mutation: Zero (raw passthrough from ADK service)',
    part: input.part ?? 'gateway',
    tags: ['fixture'],
    status: input.status,
    scenarios: input.scenarios ?? [],
    findings: input.findings ?? [],
    provenBy: input.provenBy ?? [],
    ...(input.reason === undefined ? {} : { reason: input.reason }),
  };
}

const makeMutatedFinding = (): Finding => ({
  requirement: 'GW-PASS-001',
  code: 'frame-mutated',
  path: 'frame[3]',
  message: 'frame 3 differs from the upstream bytes: the gateway re-serialised the JSON',
  expected: 'data: {"author":"coordinator","partial":true}\n\n',
  actual: 'data: {"partial":true,"author":"coordinator"}\n\n',
  scenario: 'cedar_creek_briefing',
  replay: 'adk-conformance run --scenario cedar_creek_briefing --seed 42 --requirement GW-PASS-001',
});

const makeHeaderFinding = (): Finding => ({
  requirement: 'GW-HDR-004',
  code: 'header-missing',
  path: 'header:x-accel-buffering',
  message: 'the response has no X-Accel-Buffering header',
  expected: 'no',
  actual: null,
  scenario: 'cedar_creek_briefing',
  replay: 'adk-conformance run --scenario cedar_creek_briefing --seed 42 --requirement GW-HDR-004',
});

const makeConfidenceFinding = (): Finding => ({
  requirement: 'TR-CONF-002',
  code: 'schema-invalid',
  path: '/confidence',
  message: 'confidence 1.2 is above the maximum of 1',
  expected: { maximum: 1 },
  actual: 1.2,
  scenario: 'confidence_tiers',
});

function scenario(id: string, part: Part, status: ScenarioResult['status'], outcomes: ScenarioResult['outcomes'], extra: Partial<ScenarioResult> = {}): ScenarioResult {
  return {
    scenario: id,
    part,
    status,
    durationMs: 137,
    timeline: [
      { t: 0, kind: 'request', summary: `POST /run_sse app=${id}` },
      { t: 4, kind: 'status', summary: '200 text/event-stream' },
      { t: 12, kind: 'frame', summary: 'frame 0: coordinator partial text' },
      { t: 58, kind: 'frame', summary: 'frame 1: functionCall x4' },
      { t: 131, kind: 'end', summary: 'EOF after 2 frames' },
    ],
    outcomes,
    replay: `adk-conformance run --scenario ${id} --seed 42`,
    ...extra,
  };
}

/** A run with MUST failures: non-compliant. */
export function realisticRun(): RunResult {
  // Fresh objects per call: the hostile variant mutates them, and outcome findings share them with
  // their requirement as a runner's would.
  const mutatedFinding = makeMutatedFinding();
  const headerFinding = makeHeaderFinding();
  const confidenceFinding = makeConfidenceFinding();
  const requirements: RequirementResult[] = [
    req({ id: 'GW-HDR-001', level: 'MUST', status: 'passed', provenBy: ['drop-content-type'], scenarios: ['cedar_creek_briefing'] }),
    req({ id: 'GW-PASS-001', level: 'MUST', status: 'failed', provenBy: ['reorder-keys'], scenarios: ['cedar_creek_briefing'], findings: [mutatedFinding], source: { doc: 'seed-004', section: 'Streaming Pattern' } }),
    req({ id: 'GW-HDR-004', level: 'MUST', status: 'failed', scenarios: ['cedar_creek_briefing'], findings: [headerFinding] }),
    req({ id: 'GW-ABORT-001', level: 'MUST', status: 'untested', provenBy: ['ignore-abort'], reason: 'the target crashed before the client disconnected', scenarios: ['client_disconnect'] }),
    req({ id: 'TR-CONF-002', level: 'MUST', status: 'failed', part: 'transformer', provenBy: ['confidence-overflow'], scenarios: ['confidence_tiers'], findings: [confidenceFinding], source: { doc: 'seed-002', section: '2.1 Confidence Tiers (Degraded Mode)' } }),
    req({ id: 'GW-PASS-003', level: 'SHOULD', status: 'passed', provenBy: ['buffer-all'], scenarios: ['cedar_creek_briefing'] }),
    req({ id: 'GW-ENH-001', level: 'SHOULD', status: 'untested', reason: 'no scenario exercised /run_sse_enhanced' }),
    req({ id: 'TR-STATE-003', level: 'SHOULD', status: 'passed', part: 'transformer', scenarios: ['confidence_tiers'], source: { doc: 'seed-002', section: '4.1 The Agent State Machine' } }),
    req({ id: 'NB-IDX-001', level: 'MAY', status: 'passed', part: 'normalizer', provenBy: ['reuse-index'], scenarios: ['index_reuse'], source: { doc: 'seed-003', section: 'Solution' } }),
    req({ id: 'GW-LEGACY-002', level: 'MAY', status: 'not-applicable', reason: 'the target declares no legacy endpoints' }),
    req({ id: 'AB-EVICT-001', level: 'MAY', status: 'failed', part: 'audit-bridge', findings: [{ requirement: 'AB-EVICT-001', code: 'eviction-order', path: '/evictions', message: 'the newest invocation was evicted first', expected: ['inv-1'], actual: ['inv-3'] }], scenarios: ['audit_bound'], source: { doc: 'seed-000', section: '3.1 AuditEventBridge' } }),
  ];
  const scenarios: ScenarioResult[] = [
    scenario('cedar_creek_briefing', 'gateway', 'failed', [
      { requirement: 'GW-HDR-001', scenario: 'cedar_creek_briefing', status: 'passed', findings: [] },
      { requirement: 'GW-PASS-001', scenario: 'cedar_creek_briefing', status: 'failed', findings: [mutatedFinding] },
      { requirement: 'GW-HDR-004', scenario: 'cedar_creek_briefing', status: 'failed', findings: [headerFinding] },
      { requirement: 'GW-PASS-003', scenario: 'cedar_creek_briefing', status: 'passed', findings: [] },
    ]),
    scenario('client_disconnect', 'gateway', 'errored', [
      { requirement: 'GW-ABORT-001', scenario: 'client_disconnect', status: 'untested', findings: [], reason: 'the target crashed before the client disconnected' },
    ], { error: 'target exited with code 1 before the first frame', timeline: [{ t: 0, kind: 'request', summary: 'POST /run_sse' }, { t: 9, kind: 'stderr', summary: 'TypeError: cannot read properties of undefined' }, { t: 10, kind: 'exit', summary: 'exit code 1' }] }),
    scenario('confidence_tiers', 'transformer', 'failed', [
      { requirement: 'TR-CONF-002', scenario: 'confidence_tiers', status: 'failed', findings: [confidenceFinding] },
      { requirement: 'TR-STATE-003', scenario: 'confidence_tiers', status: 'passed', findings: [] },
    ]),
    scenario('index_reuse', 'normalizer', 'passed', [
      { requirement: 'NB-IDX-001', scenario: 'index_reuse', status: 'passed', findings: [] },
    ]),
    scenario('audit_bound', 'audit-bridge', 'failed', [
      { requirement: 'AB-EVICT-001', scenario: 'audit_bound', status: 'failed', findings: requirements[10]?.findings ?? [] },
    ]),
  ];
  const gate = { level: 'must', untestedFails: true } as const;
  return {
    tool: { name: 'adk-conformance', version: '0.1.0' },
    startedAt: '2026-05-01T10:00:00.000Z',
    finishedAt: '2026-05-01T10:00:02.500Z',
    durationMs: 2500,
    target: { description: 'reference implementation on the embedded mock', parts: ['gateway', 'transformer', 'normalizer', 'audit-bridge'] },
    gate,
    seed: 42,
    seedSource: 'given',
    requirements,
    scenarios,
    ...tally({ gate, requirements, scenarios, mutants: { total: 8, killed: 6 } }),
  };
}

/** The same run with every applicable requirement passed and proven: fully compliant. */
export function passingRun(): RunResult {
  const base = realisticRun();
  const requirements = base.requirements.map((r) => (r.status === 'not-applicable' ? r : { ...r, status: 'passed' as const, findings: [], provenBy: r.provenBy.length > 0 ? r.provenBy : [`mutant-${r.id.toLowerCase()}`] }));
  const scenarios = base.scenarios.map((s) => ({ ...s, status: 'passed' as const, outcomes: s.outcomes.map((o) => ({ ...o, status: 'passed' as const, findings: [] })) }));
  scenarios.forEach((s) => { delete s.error; });
  return { ...base, requirements, scenarios, ...tally({ gate: base.gate, requirements, scenarios, mutants: { total: 8, killed: 8 } }) };
}

/** Hostile strings: markup, control characters, CDATA terminators, Markdown table breakers. */
export const hostile = {
  script: '<script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">',
  control: 'bell\u0007 nul\u0000 esc\u001b vt\u000b end',
  markup: ']]> & "quoted" \'single\' | pipe `tick` ```fence``` </pre> <!-- c -->',
};

/** The realistic run with hostile strings in every user-provided field a reporter prints. */
export function hostileRun(): RunResult {
  const run = realisticRun();
  const target = run.requirements.find((r) => r.id === 'GW-PASS-001');
  const finding = target?.findings[0];
  if (!target || !finding) throw new Error('fixture: GW-PASS-001 has no finding');
  finding.message = `gateway said ${hostile.script} ${hostile.control}`;
  finding.path = hostile.markup;
  finding.expected = { text: hostile.script };
  finding.actual = hostile.control + hostile.markup;
  finding.replay = `adk-conformance run --scenario 'a|b' # ${hostile.markup}`;
  target.title = `title ${hostile.markup} ${hostile.script}`;
  run.target.description = hostile.script;
  const s = run.scenarios[0];
  if (s) s.timeline.push({ t: 99, kind: 'note', summary: hostile.script + hostile.control });
  return run;
}

/** Split the realistic run as a sharded runner would: each shard reports every requirement, untested when none of its scenarios exercised it. */
export function shardOf(run: RunResult, index: number, total: number, scenarioIds: string[]): RunResult {
  const scenarios = run.scenarios.filter((s) => scenarioIds.includes(s.scenario));
  const requirements = run.requirements.map((r): RequirementResult => {
    if (r.status === 'not-applicable') return r;
    const mine = r.scenarios.some((s) => scenarioIds.includes(s)) || (r.scenarios.length === 0 && index === 1);
    return mine ? r : { ...r, status: 'untested', findings: [], scenarios: [], reason: `not exercised by shard ${index}` };
  });
  return { ...run, shard: { index, total }, requirements, scenarios, ...tally({ gate: run.gate, requirements, scenarios, mutants: run.counts.mutants }) };
}

