/**
 * Every gateway break by name: what serve.ts and the in-process launcher look a mutant up in.
 */
import { accessBreaks } from './breaks-access.ts';
import type { GatewayBreak } from './host.ts';
import { memoryBreaks } from './breaks-memory.ts';
import { streamBreaks } from './breaks-stream.ts';
import { upstreamBreaks } from './breaks-upstream.ts';
import { shapeVariants } from './breaks-shape.ts';

export const gatewayBreaks: Readonly<Record<string, GatewayBreak>> = { ...streamBreaks, ...upstreamBreaks, ...accessBreaks, ...memoryBreaks, ...shapeVariants, none: {} };

export function breakNamed(name: string): GatewayBreak {
  const brk = gatewayBreaks[name];
  if (!brk) throw new TypeError(`no gateway break named '${name}'; known: ${Object.keys(gatewayBreaks).sort().join(', ')}`);
  return brk;
}
