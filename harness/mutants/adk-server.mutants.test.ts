/**
 * Proves the server-helper checks can fail: the reference route passes every SRV and ADK
 * requirement, and each mutant of harness/mutants/adk-server fails exactly the requirements it
 * names, through the same runner `--adk-server-module` uses (a real adk-js Runner, real HTTP on 127.0.0.1).
 */
import { describe, expect, it } from 'vitest';
import { referenceAdkServerModule } from '../targets/adk-server/runner.ts';
import { certifyAdkServer as certify, judged } from '../targets/adk-server/test-support.ts';
import { adkServerMutants } from './adk-server/index.ts';


describe('server-helper mutants', () => {
  it('the reference route passes every SRV and ADK requirement, none untested', async () => {
    const result = await certify(referenceAdkServerModule);
    expect(result.requirements.map((q) => [q.id, q.status, q.findings.map((f) => f.message)])).toEqual(judged.map((q) => [q.id, 'passed', []]));
  }, 60_000);

  for (const mutant of adkServerMutants) {
    it(`${mutant.id} makes exactly its kills fail`, async () => {
      const module = mutant.target.adkServer?.module;
      if (!module) throw new Error(`${mutant.id} has no module`);
      const result = await certify(module);
      expect(result.requirements.filter((q) => q.status === 'failed').map((q) => q.id).sort()).toEqual([...mutant.kills].sort());
      expect(result.requirements.filter((q) => q.status === 'untested')).toEqual([]);
    }, 60_000);
  }

  it('a module that does not export createAdkServer leaves every requirement untested, with the reason', async () => {
    const result = await certify(new URL('../targets/types.ts', import.meta.url).pathname);
    expect(result.requirements.map((q) => q.status)).toEqual(judged.map(() => 'untested'));
    expect(result.requirements[0]?.reason).toMatch(/exports no createAdkServer function/);
  }, 60_000);
});
