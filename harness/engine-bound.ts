/** The engine's bound around one job (engine.ts), fair as every bound on an implementation is (fair-timer.ts). */
import type { ScenarioCheck } from './targets/types.ts';
import { fairTimeout, ledgerMs, withheldClock, withLedger, type FairTimer, type Ledger } from './fair-timer.ts';

/**
 * A job within its bound. The bound is fair (fair-timer.ts): it moves by the CPU time the machine
 * withheld from the harness, by what the bounds of the job's own runs moved, so that a run given
 * more time for the same reason never makes its job overrun, and by what was withheld from the
 * long-lived processes the job drives (fair-timer.ts watchProcess).
 */
export async function bounded(work: () => Promise<ScenarioCheck>, ms: number, controller: AbortController): Promise<ScenarioCheck | 'timeout' | Error> {
  const ledger: Ledger = { movedMs: 0 };
  const harness = withheldClock(() => undefined);
  let timer: FairTimer | undefined;
  const timeout = new Promise<'timeout'>((resolve) => { timer = fairTimeout(ms, () => { controller.abort(); resolve('timeout'); }, { withheld: () => harness() + ledgerMs(ledger) }); });
  try {
    return await Promise.race([withLedger(ledger, work).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))), timeout]);
  } finally {
    timer?.cancel();
  }
}
