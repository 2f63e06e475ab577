/**
 * A loaded machine's pause in the harness's own feeding is not the implementation's behaviour.
 * Every target that writes a run's input on a schedule (a transformer's lines, a client's body
 * bytes) measures how much later than scripted each write came, and drives the run again while that
 * pause was long enough to let a correct implementation's clock (an idle window, a grace) run out.
 * The transformer's and the client's drives both take their rule from here.
 */

/** A stall of the feed at least this share of the window it could exhaust makes a run no observation of its script. */
export const stallShare = 0.6;

/**
 * The longest pause the harness added between two writes beyond the scripted one. `writtenAt`:
 * when each write happened; `scriptedGaps[i]`: the pause scripted before write `i` (the first
 * write's is never counted: start-up, not feeding, precedes it).
 */
export function worstStallMs(writtenAt: readonly number[], scriptedGaps: readonly number[]): number {
  let worst = 0;
  for (let i = 1; i < writtenAt.length; i++) {
    const actual = (writtenAt[i] ?? 0) - (writtenAt[i - 1] ?? 0);
    worst = Math.max(worst, actual - (scriptedGaps[i] ?? 0));
  }
  return worst;
}

/**
 * The most the harness stretched any run of consecutive writes beyond the pauses scripted between
 * them. A clock that runs across many writes (a client's grace after the final answer, which only
 * EOF stops) is exhausted by many small delays as by one: a body split into one write per byte,
 * each a little late on a busy event loop, ended a correct client's 250 ms grace before EOF (CI of
 * 2026-11-30, examples/python-client/client.py on framing_split_every_byte), where no single
 * pause came near it. One late write counts as worstStallMs counts it.
 */
export function worstStretchMs(writtenAt: readonly number[], scriptedGaps: readonly number[]): number {
  let worst = 0;
  let scripted = 0;
  let earliest = 0;
  for (let i = 1; i < writtenAt.length; i++) {
    scripted += scriptedGaps[i] ?? 0;
    // How late write i is against the schedule started at write 0; the stretch is its rise since the least late one before it.
    const late = (writtenAt[i] ?? 0) - (writtenAt[0] ?? 0) - scripted;
    worst = Math.max(worst, late - earliest);
    earliest = Math.min(earliest, late);
  }
  return worst;
}

/**
 * Drive once, and again (twice at most) while `stalled` says the drive's feed paused long enough
 * to decide its outcome. Returns the last drive: still stalled after three, the caller says the run
 * could not be judged rather than judging the machine.
 */
export async function driveWhileStalled<D>(once: () => Promise<D>, opts: { stallMs: (d: D) => number; limitMs: (d: D) => number | undefined; signal: AbortSignal; onRetry?: (stallMs: number) => void }): Promise<{ driven: D; stallMs: number; stalled: boolean }> {
  const judge = (d: D) => {
    const stallMs = opts.stallMs(d);
    const limit = opts.limitMs(d);
    return { stallMs, stalled: limit !== undefined && stallMs >= limit * stallShare };
  };
  let driven = await once();
  let state = judge(driven);
  for (let retry = 0; retry < 2 && state.stalled && !opts.signal.aborted; retry++) {
    opts.onRetry?.(state.stallMs);
    driven = await once();
    state = judge(driven);
  }
  return { driven, ...state };
}
