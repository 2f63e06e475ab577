import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startWorkClock } from './run-delay.ts';

describe.runIf(existsSync('/proc/self/task'))('startWorkClock', () => {
  it('counts a process started after it and not one that was running before', async () => {
    // Busy until the child has used `ms` of CPU: the same figure however loaded the machine is.
    const burn = (ms: number) => spawn(process.execPath, ['-e', `for (;;) { const u = process.cpuUsage(); if ((u.user + u.system) / 1000 >= ${ms}) break; }`], { stdio: 'ignore' });
    const before = burn(1500);
    const clock = startWorkClock();
    const after = burn(400);
    await new Promise((resolve) => after.once('exit', resolve));
    const ms = clock.stop();
    before.kill();
    // The child's 400 ms of CPU (less what it used after its last sample, 100 ms at most), not the older one's.
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(1400);
  });
});
