import { describe, expect, it } from 'vitest';
import { validate } from '../../schemas/registry.ts';
import { renderJson } from './json.ts';
import { hostileRun, passingRun, realisticRun } from './test-fixture.ts';

describe('JSON reporter', () => {
  it.each([['realistic', realisticRun], ['passing', passingRun], ['hostile', hostileRun]])('the %s run is valid against schemas/report.schema.json', (_name, make) => {
    const { valid, errors } = validate('report', JSON.parse(renderJson(make())));
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
  });

  it('round-trips the RunResult exactly, passing requirements and scenarios included', () => {
    const run = realisticRun();
    expect(JSON.parse(renderJson(run))).toEqual(JSON.parse(JSON.stringify(run)));
    expect(JSON.parse(renderJson(run)).requirements.filter((r: { status: string }) => r.status === 'passed')).toHaveLength(4);
  });

  it('a report missing its verdict is refused by the schema, naming the property', () => {
    const broken: Record<string, unknown> = JSON.parse(renderJson(realisticRun()));
    delete broken.verdict;
    const { valid, errors } = validate('report', broken);
    expect(valid).toBe(false);
    expect(errors.some((e) => e.keyword === 'required' && JSON.stringify(e.params).includes('verdict'))).toBe(true);
  });

  it('ends with a newline and is indented for diffs', () => {
    const text = renderJson(realisticRun());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toMatch(/^ {2}"tool"/);
  });
});
