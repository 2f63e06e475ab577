import { describe, expect, it } from 'vitest';
import { resolveGrep } from './grep.ts';

const scenarios = [
  { id: 'cedar_creek_briefing', family: 'delegation', tags: ['seed-001'] },
  { id: 'cedar_creek_briefing_streaming', family: 'streaming', tags: [] },
  { id: 'plain_text', family: 'basic', tags: ['errors'] },
];
const requirements = [{ id: 'ABE-LIFE-001', tags: ['lifecycle'] }, { id: 'ABE-LIFE-004', tags: [] }, { id: 'ABE-TERM-001', tags: [] }];
const resolve = (...grep: string[]) => resolveGrep({ grep, scenarios, requirements, probes: ['transformer-long-lived'] });

describe('--grep', () => {
  it('an exact name keeps selecting exactly what it names, and says how many scenarios that is', () => {
    expect(resolve('cedar_creek_briefing')).toEqual({ words: ['cedar_creek_briefing'], notes: ['--grep cedar_creek_briefing: 1 scenario matched (cedar_creek_briefing)'] });
    expect(resolve('ABE-LIFE-001').words).toEqual(['ABE-LIFE-001']);
    expect(resolve('delegation').notes).toEqual(['--grep delegation: 1 scenario matched (cedar_creek_briefing)']);
  });

  it('another word is a substring of scenario ids and probe labels, any case, like vitest -t', () => {
    expect(resolve('CEDAR')).toEqual({ words: ['cedar_creek_briefing', 'cedar_creek_briefing_streaming'], notes: ["--grep 'CEDAR' (substring): 2 scenarios matched (cedar_creek_briefing, cedar_creek_briefing_streaming)"] });
    expect(resolve('long-lived').words).toEqual(['probe:transformer-long-lived']);
  });

  it('/pattern/ is a regular expression; one that matches no scenario but requirement ids selects those', () => {
    expect(resolve('/_streaming$/').words).toEqual(['cedar_creek_briefing_streaming']);
    expect(resolve('/^ABE-LIFE/')).toEqual({ words: ['ABE-LIFE-001', 'ABE-LIFE-004'], notes: ['--grep /^ABE-LIFE/ (pattern): no scenario id; 2 requirements matched (ABE-LIFE-001, ABE-LIFE-004)'] });
  });

  it('nothing matched, or a broken pattern, is a usage error', () => {
    expect(() => resolve('zzz')).toThrow(/--grep zzz matches no requirement id or tag, no scenario id, family or tag and no probe, exactly or as a substring/);
    expect(() => resolve('/(/')).toThrow(/--grep \/\(\/ is not a valid regular expression/);
  });
});
