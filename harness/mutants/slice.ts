/**
 * A mutant suite sliced over several test files, so vitest runs its certifications in workers side
 * by side: a certification waits on its clocks most of its time (the client suite in one file was the
 * longest file of `npm test`, 355.9 s wall, 36% busy), and one engine runs one timed run at a time.
 * The certifications are dealt round-robin in the order the suite lists them: slice `slice` of `of`
 * (1-based) keeps every `of`-th, so the heavy ones listed first land in different files.
 */
export type Deal = {
  /** The items of this slice, the deal continuing across calls. */
  each: <T>(items: readonly T[]) => T[];
  /** Whether the next single certification is this slice's. */
  take: () => boolean;
};

export function dealSlice(slice: number, of: number): Deal {
  if (!Number.isInteger(of) || of < 1 || !Number.isInteger(slice) || slice < 1 || slice > of) throw new RangeError(`dealSlice(${slice}, ${of}): the slice is 1 to ${of}, of a whole number of slices`);
  let dealt = 0;
  const take = () => dealt++ % of === slice - 1;
  return { each: (items) => items.filter(() => take()), take };
}
