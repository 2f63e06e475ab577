import { describe, expect, it } from 'vitest';
import { applySkip, resolveGrep } from './grep.ts';

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

describe('--skip', () => {
  const probes = ['transformer-long-lived', 'transformer-memory'];
  const skip = (grep: string[], ...words: string[]) => {
    const input = { grep, scenarios, requirements, probes };
    return applySkip({ ...input, skip: words }, resolveGrep(input));
  };

  it('leaves out what it names: the rest is an exact scenario-level selection, probes included', () => {
    expect(skip([], 'probe:transformer-memory')).toEqual({
      words: ['cedar_creek_briefing', 'cedar_creek_briefing_streaming', 'plain_text', 'probe:transformer-long-lived'],
      notes: ['--skip probe:transformer-memory: 0 scenarios and 1 probe left out (probe:transformer-memory)'],
    });
    // A family, a substring, a pattern.
    expect(skip([], 'delegation').words).toEqual(['cedar_creek_briefing_streaming', 'plain_text', 'probe:transformer-long-lived', 'probe:transformer-memory']);
    expect(skip([], 'memory', '/_streaming$/').words).toEqual(['cedar_creek_briefing', 'plain_text', 'probe:transformer-long-lived']);
  });

  it('narrows a scenario-level --grep, which it expands to exact names first', () => {
    expect(skip(['cedar'], 'streaming').words).toEqual(['cedar_creek_briefing']);
    expect(skip(['basic', 'transformer-memory'], 'probe:transformer-memory').words).toEqual(['plain_text']);
  });

  it('refuses a requirement, a word that leaves out nothing, a selection left empty, and a requirement-level --grep', () => {
    expect(() => skip([], 'ABE-TERM-001')).toThrow(/--skip ABE-TERM-001 is a requirement id: --skip leaves out scenarios and probes/);
    expect(() => skip([], 'zzz')).toThrow(/--skip zzz leaves out nothing: it names no scenario \(id, family or tag\) and no probe of this run/);
    expect(() => skip(['plain_text'], 'cedar')).toThrow(/--skip cedar leaves out nothing: .* of this run's --grep selection/);
    expect(() => skip(['plain_text'], 'plain_text')).toThrow(/--skip plain_text leaves nothing to run/);
    expect(() => skip(['ABE-LIFE-001'], 'plain_text')).toThrow(/--skip leaves out scenarios and probes, and this --grep selects requirements \(ABE-LIFE-001\)/);
  });

  it('with no word, the selection is --grep\'s as it was', () => {
    const input = { grep: ['cedar'], scenarios, requirements, probes };
    expect(applySkip({ ...input, skip: [] }, resolveGrep(input))).toEqual(resolveGrep(input));
  });
});
