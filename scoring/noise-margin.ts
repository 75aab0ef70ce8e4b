// The noise margin δ(s) a challenger must clear on top of the incumbent's score, as a fraction of
// that score. Flat at 3% while the incumbent passes at most 70% of the tests; it then narrows
// linearly to 0 at a perfect score, because near the ceiling there are few tests left to gain and a
// 3% margin would make the seat unwinnable (at s = 0.99 it would demand more than the maximum).

export const fullMarginFraction = 0.03;
/** Up to this share of tests passed the margin is the full 3%. */
export const flatMarginUntilShare = 0.7;

/** δ(s) for an incumbent that passes a share `s` (in [0, 1]) of the tests. */
export function noiseMarginFraction(incumbentShare: number): number {
  if (!Number.isFinite(incumbentShare) || incumbentShare < 0 || incumbentShare > 1) {
    throw new RangeError(`the incumbent's share of tests must be in [0, 1], got ${incumbentShare}`);
  }
  if (incumbentShare <= flatMarginUntilShare) return fullMarginFraction;
  return (fullMarginFraction * (1 - incumbentShare)) / (1 - flatMarginUntilShare);
}
