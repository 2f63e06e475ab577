/**
 * Tests start a mutant in the test process instead of spawning its command: the same break on the
 * same reference gateway with the same contract environment, without a process start per instance.
 * Its memory cannot be told apart from the test's, so GW-MEM-002 stays with the command.
 */
import type { GatewayLauncher } from '../../targets/gateway/instances.ts';
import { breakNamed } from './breaks.ts';
import { startMutantGateway } from './host.ts';

export function inProcessLauncher(breakName: string): GatewayLauncher {
  const brk = breakNamed(breakName);
  return async (env, bounds) => {
    try {
      const running = await startMutantGateway(brk, env, Number(env.PORT));
      return {
        ok: true,
        instance: {
          url: running.url,
          port: running.port,
          rss: () => ({ error: 'the gateway runs inside the test process, so its memory cannot be read apart' }),
          gone: () => undefined,
          stop: running.close,
        },
      };
    } catch (error) {
      // Another process took the free port between the harness's pick and this listen: the runner
      // picks another (portTaken), as it does for a spawned gateway that says EADDRINUSE (CI of 3ffc416).
      const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      return { ok: false, reason: `the ${bounds.label} gateway (in process, break ${breakName}) did not start: ${(error as Error).message}`, ...(taken ? { portTaken: true as const } : {}) };
    }
  };
}
