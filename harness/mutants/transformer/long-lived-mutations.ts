/**
 * Defects of long-lived transformers (issue 30 §2), as mutations of the reference module: each shows
 * only over runs of one instance, and is caught by the long-lived probe's requirement named in
 * harness/mutants/transformer/index.ts.
 */
import type { Mutation } from './mutate.ts';

// Runs open at once in this module (module-level, as a singleton app's state is).
let open = 0;
// Every briefing ever emitted, by event id: the chain a real published transformer kept and
// re-sorted, never cleared, so it grows with every run of the app's life (issue 30).
const chain = new Map<string, unknown>();

export const longLivedMutations: Record<string, Mutation> = {
  // correlation_id = the turn's invocationId: one value per run (ABE-CORR-001 holds), another at every turn.
  'transformer-correlation-per-invocation': {
    line: (line, ctx) => {
      if (ctx.state.invocation === undefined) {
        const m = /"invocationId"\s*:\s*"([^"]+)"/.exec(line);
        if (m) ctx.state.invocation = m[1];
      }
      return { line };
    },
    event: (e, ctx) => (typeof ctx.state.invocation === 'string' ? { ...e, correlation_id: ctx.state.invocation } : e),
  },
  // A fixed pool of 12 per-run states: a run opened while 12 others are open shares one, and
  // finds its agents already "thinking" (no THINKING of its own). The engine never has that many
  // runs of one module open; a singleton app under load does.
  'transformer-shared-state-under-load': {
    opened: (ctx) => { ctx.state.crowded = open >= 12; open++; },
    closed: () => { open--; },
    event: (e, ctx) => (ctx.state.crowded === true && e.state === 'THINKING' ? null : e),
  },
  // The chain of every briefing, kept at module level and never cleared: each briefing the same
  // as the reference's, only the memory grows (ABE-MEM-001 alone sees it).
  'transformer-keeps-its-chain': {
    event: (e) => { chain.set(e.event_id, structuredClone(e)); return e; },
  },
};
