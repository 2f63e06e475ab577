/**
 * Breaks of what a gateway keeps: memory retained per finished run, the way real gateways leak
 * (a per-run record in a map nobody clears, a transcript kept "for debugging").
 */
import { isStreamPost, type GatewayBreak } from './host.ts';

/** Per-run records that are never dropped (module-level: they live as long as the process). */
const records = new Map<number, unknown>();
let counter = 0;

/**
 * Keeps `bytes` for every finished canonical stream: a string in the JS heap (a transcript),
 * or an off-heap Buffer (a copy of the bytes), so both kinds of memory are exercised.
 */
function leaksPerRun(bytes: number, kind: 'heap' | 'buffer'): GatewayBreak {
  return {
    request(req, res) {
      if (isStreamPost(req)) {
        res.once('close', () => {
          const fill = Buffer.alloc(bytes, 0x61 + (counter % 26));
          records.set(counter++, kind === 'heap' ? fill.toString('latin1') : fill);
        });
      }
      return 'gateway';
    },
  };
}

export const memoryBreaks: Record<string, GatewayBreak> = {
  'leaks-16k-per-run': leaksPerRun(16 * 1024, 'buffer'),
  'leaks-1k-per-run': leaksPerRun(1024, 'heap'),
};
