import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runChild } from './child.ts';
import { openSessionPool } from './session.ts';
import { childNice, defaultChildNice } from './child-priority.ts';

// What the spawned shell reads of itself: its nice value (field 19 of /proc/self/stat) and its autogroup line.
const readSelf = 'cut -d" " -f19 /proc/$$/stat; cat /proc/$$/autogroup 2>/dev/null || echo no-autogroup';

describe('implementation processes yield to the harness', () => {
  it('a one-shot child runs at nice 5, its autogroup too where the kernel has them', async () => {
    const obs = await runChild({ command: `sleep 0.2; ${readSelf}`, input: [], timeoutMs: 10_000 });
    const [nice, autogroup] = obs.lines.map((l) => l.text);
    expect(nice).toBe(String(defaultChildNice));
    if (existsSync('/proc/self/autogroup')) expect(autogroup).toMatch(new RegExp(`nice ${defaultChildNice}$`));
  });

  it('a session process too (it answers ready after it read itself)', async () => {
    const pool = openSessionPool({ command: `sleep 0.2; { ${readSelf}; } >&2; echo '{"cmd":"ready","protocol":1,"implementation":{"name":"x","version":"1","language":"sh","parts":["transformer"]}}'; cat >/dev/null`, part: 'transformer', startupTimeoutMs: 10_000 });
    try {
      expect(await pool.ready()).toMatchObject({ ok: true });
      const pid = pool.pid();
      expect(pid).toBeDefined();
      const { readFileSync } = await import('node:fs');
      expect(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]).toBe(String(defaultChildNice));
    } finally { await pool.close(); }
  });

  it('reads ADK_CONFORMANCE_CHILD_NICE, and refuses a bad value with the fix', () => {
    expect(childNice({})).toBe(5);
    expect(childNice({ ADK_CONFORMANCE_CHILD_NICE: '0' })).toBe(0);
    expect(childNice({ ADK_CONFORMANCE_CHILD_NICE: '12' })).toBe(12);
    expect(() => childNice({ ADK_CONFORMANCE_CHILD_NICE: '-3' })).toThrow(/ADK_CONFORMANCE_CHILD_NICE="-3": expected a whole number from 0 to 19.*unset it for the default 5/);
    expect(() => childNice({ ADK_CONFORMANCE_CHILD_NICE: 'low' })).toThrow(/expected a whole number/);
  });
});
