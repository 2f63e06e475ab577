/**
 * The listener bound of an AbortSignal, read where Node lets it be read: `events.getMaxListeners`
 * throws for an AbortSignal on Node 22.13 and 22.14 ("The "emitter" argument must be an instance of
 * EventEmitter or EventTarget"), while 22.12, 22.23 and 24 answer; `setMaxListeners` works on all of
 * them. test/package.test.ts found it on the lowest Node the package promises (docs/install.md).
 */
import { defaultMaxListeners, getMaxListeners } from 'node:events';

export function maxListenersOf(signal: AbortSignal): number {
  try {
    return getMaxListeners(signal);
  } catch {
    // The releases above: the bound a signal starts with.
    return defaultMaxListeners;
  }
}
