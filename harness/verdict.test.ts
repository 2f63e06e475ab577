import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Level, RequirementStatus, Verdict } from './model.ts';
import { computeVerdict, countScenarios, describeGate, describeVerdict, exitCodeOf, levels, meetsGate, requirementStatuses, tally, unprovenRequirements, verdicts } from './verdict.ts';
import { passingRun, realisticRun, req } from './reporters/test-fixture.ts';

const r = (id: string, level: Level, status: RequirementStatus) => ({ id, level, status });
const allPassed = () => [r('M1', 'MUST', 'passed'), r('S1', 'SHOULD', 'passed'), r('Y1', 'MAY', 'passed')];

describe('computeVerdict boundaries', () => {
  it('every applicable requirement passed is fully compliant', () => {
    expect(computeVerdict(allPassed()).verdict).toBe('fully compliant');
  });

  it.each(['failed', 'untested', 'flaky'] as const)('a MUST %s is non-compliant even when everything else passed', (status) => {
    expect(computeVerdict([...allPassed(), r('M2', 'MUST', status)]).verdict).toBe('non-compliant');
  });

  it.each(['failed', 'untested', 'flaky'] as const)('all MUST passed and a SHOULD %s is MUST-compliant', (status) => {
    expect(computeVerdict([...allPassed(), r('S2', 'SHOULD', status)]).verdict).toBe('MUST-compliant');
  });

  it.each(['failed', 'untested'] as const)('all MUST and SHOULD passed and a MAY %s is SHOULD-compliant', (status) => {
    expect(computeVerdict([...allPassed(), r('Y2', 'MAY', status)]).verdict).toBe('SHOULD-compliant');
  });

  it('a MUST failure outranks SHOULD and MAY failures', () => {
    expect(computeVerdict([r('M1', 'MUST', 'untested'), r('M2', 'MUST', 'passed'), r('S1', 'SHOULD', 'failed'), r('Y1', 'MAY', 'failed')]).verdict).toBe('non-compliant');
  });

  it('no applicable MUST observed is could not evaluate, whatever the SHOULDs did (issue 28: `--gateway-cmd "sleep 600"` was MUST-compliant)', () => {
    expect(computeVerdict([r('M1', 'MUST', 'untested'), r('S1', 'SHOULD', 'passed')]).verdict).toBe('could not evaluate');
    expect(computeVerdict([r('M1', 'MUST', 'untested'), r('M2', 'MUST', 'untested'), r('S1', 'SHOULD', 'failed')]).verdict).toBe('could not evaluate');
    // One MUST observed, even failing or flaky, is a verdict.
    expect(computeVerdict([r('M1', 'MUST', 'untested'), r('M2', 'MUST', 'flaky')]).verdict).toBe('non-compliant');
    // Where no MUST applies, nothing observed at any level.
    expect(computeVerdict([r('S1', 'SHOULD', 'untested'), r('M1', 'MUST', 'not-applicable')]).verdict).toBe('could not evaluate');
    expect(computeVerdict([r('S1', 'SHOULD', 'passed')]).verdict).toBe('fully compliant');
  });

  it('not-applicable requirements are excluded from the verdict but counted', () => {
    const { verdict, counts } = computeVerdict([...allPassed(), r('M9', 'MUST', 'not-applicable'), r('S9', 'SHOULD', 'not-applicable')]);
    expect(verdict).toBe('fully compliant');
    expect(counts.MUST['not-applicable']).toBe(1);
    expect(counts.SHOULD['not-applicable']).toBe(1);
  });

  it('a level with no applicable requirement does not block the verdict', () => {
    expect(computeVerdict([r('M1', 'MUST', 'passed')]).verdict).toBe('fully compliant');
    expect(computeVerdict([r('M1', 'MUST', 'passed'), r('Y1', 'MAY', 'failed')]).verdict).toBe('SHOULD-compliant');
  });

  it('a run where nothing applies is refused rather than called compliant', () => {
    expect(() => computeVerdict([r('M1', 'MUST', 'not-applicable')])).toThrow(/no applicable requirement.*parts/);
    expect(() => computeVerdict([])).toThrow(/no applicable requirement/);
  });

  it('an unknown level or status is refused with the requirement id', () => {
    expect(() => computeVerdict([{ id: 'X-1', level: 'MUSTN' as Level, status: 'passed' }])).toThrow(/X-1.*MUSTN/);
    expect(() => computeVerdict([{ id: 'X-2', level: 'MUST', status: 'skipped' as RequirementStatus }])).toThrow(/X-2.*skipped/);
  });

  it('counts every requirement under its level and status', () => {
    const { counts } = computeVerdict(realisticRun().requirements);
    expect(counts).toEqual({
      MUST: { passed: 1, failed: 3, flaky: 0, untested: 1, 'not-applicable': 0 },
      SHOULD: { passed: 2, failed: 0, flaky: 0, untested: 1, 'not-applicable': 0 },
      MAY: { passed: 1, failed: 1, flaky: 0, untested: 0, 'not-applicable': 1 },
    });
  });

  it('the verdict is the lowest level with a shortfall, over generated requirement sets', () => {
    const seed = 20260501;
    console.log(`fast-check seed ${seed}`);
    const arb = fc.array(fc.record({ level: fc.constantFrom(...levels), status: fc.constantFrom(...requirementStatuses) }), { minLength: 1, maxLength: 30 });
    fc.assert(fc.property(arb, (items) => {
      const reqs = items.map((x, i) => ({ id: `R${i}`, ...x }));
      if (!reqs.some((x) => x.status !== 'not-applicable')) return;
      const short = (level: Level) => reqs.some((x) => x.level === level && (x.status === 'failed' || x.status === 'untested' || x.status === 'flaky'));
      const applicable = (level: Level) => reqs.filter((x) => x.level === level && x.status !== 'not-applicable');
      const gateLevels: Level[] = applicable('MUST').length > 0 ? ['MUST'] : [...levels];
      const nothing = gateLevels.every((level) => applicable(level).every((x) => x.status === 'untested'));
      const expected: Verdict = nothing ? 'could not evaluate' : short('MUST') ? 'non-compliant' : short('SHOULD') ? 'MUST-compliant' : short('MAY') ? 'SHOULD-compliant' : 'fully compliant';
      expect(computeVerdict(reqs).verdict).toBe(expected);
    }), { seed, numRuns: 300 });
  });
});

describe('meetsGate', () => {
  const table: [Verdict, boolean, boolean, boolean][] = [
    ['could not evaluate', false, false, false],
    ['non-compliant', false, false, false],
    ['MUST-compliant', true, false, false],
    ['SHOULD-compliant', true, true, false],
    ['fully compliant', true, true, true],
  ];
  it.each(table)('%s against the gate levels, weakest first, gives %s, %s, %s', (verdict, must, should, may) => {
    expect([meetsGate(verdict, 'must'), meetsGate(verdict, 'should'), meetsGate(verdict, 'may')]).toEqual([must, should, may]);
  });

  it('an unknown gate level is refused with the known ones', () => {
    expect(() => meetsGate('fully compliant', 'all' as 'must')).toThrow(/must, should or may/);
  });

  it('verdicts are ordered worst first', () => {
    expect(verdicts).toEqual(['could not evaluate', 'non-compliant', 'MUST-compliant', 'SHOULD-compliant', 'fully compliant']);
  });

  it('could not evaluate has an exit code of its own, apart from usage errors (2) and non-compliance (1)', () => {
    expect(exitCodeOf({ verdict: 'could not evaluate', passed: false })).toBe(3);
    expect(exitCodeOf({ verdict: 'non-compliant', passed: false })).toBe(1);
    expect(exitCodeOf({ verdict: 'MUST-compliant', passed: true })).toBe(0);
  });
});

describe('describeVerdict', () => {
  const counts = (reqs: Array<{ id: string; level: Level; status: RequirementStatus }>) => ({ requirements: computeVerdict(reqs).counts });
  it('says which levels were judged and which had nothing to judge (issue 28: "fully compliant" with SHOULD 0 passed)', () => {
    const reqs = [r('M1', 'MUST', 'passed'), r('M2', 'MUST', 'passed'), r('S1', 'SHOULD', 'not-applicable')];
    expect(describeVerdict({ verdict: 'fully compliant', counts: counts(reqs) })).toBe('fully compliant: MUST 2 of 2 passed; no SHOULD or MAY requirement applies');
  });
  it('names what fell short on a failing run', () => {
    const reqs = [r('M1', 'MUST', 'passed'), r('M2', 'MUST', 'failed'), r('M3', 'MUST', 'flaky'), r('M4', 'MUST', 'untested'), r('S1', 'SHOULD', 'passed')];
    expect(describeVerdict({ verdict: 'non-compliant', counts: counts(reqs) })).toBe('non-compliant: MUST 1 of 4 passed (1 failed, 1 flaky, 1 untested); SHOULD 1 of 1 passed; no MAY requirement applies');
  });
});

describe('describeGate, unproven and tally', () => {
  it('the gate sentence names the minimum verdict and the untested rule', () => {
    expect(describeGate({ level: 'should', untestedFails: true })).toMatch(/SHOULD-compliant or better.*Untested and flaky requirements count as failures.*could not evaluate.*exit 3/);
  });

  it('unproven lists applicable requirements without a mutant, never not-applicable ones', () => {
    const ids = unprovenRequirements(realisticRun().requirements).map((x) => x.id);
    expect(ids.sort()).toEqual(['AB-EVICT-001', 'GW-ENH-001', 'GW-HDR-004', 'TR-STATE-003']);
    expect(unprovenRequirements([req({ id: 'N', level: 'MAY', status: 'not-applicable' })])).toEqual([]);
  });

  it('countScenarios refuses an unknown status', () => {
    expect(countScenarios([{ status: 'passed' }, { status: 'errored' }])).toEqual({ total: 2, passed: 1, failed: 0, errored: 1 });
    expect(() => countScenarios([{ status: 'skipped' as 'passed' }])).toThrow(/skipped/);
  });

  it('tally derives verdict, gate result and counts together', () => {
    const run = realisticRun();
    expect(run.verdict).toBe('non-compliant');
    expect(run.passed).toBe(false);
    expect(run.counts.scenarios).toEqual({ total: 5, passed: 1, failed: 3, errored: 1 });
    expect(run.counts.unproven).toBe(4);
    const passing = passingRun();
    expect(tally({ ...passing, gate: { level: 'may', untestedFails: true }, mutants: passing.counts.mutants })).toMatchObject({ verdict: 'fully compliant', passed: true });
  });
});
