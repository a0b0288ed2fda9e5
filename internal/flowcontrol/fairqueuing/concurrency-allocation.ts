/**
 * The fair division of the server's seats among priority levels (kube's conc_alloc.go): find the
 * fair proportion p such that the levels' allocations, each p * target clamped to the level's
 * [lowerBound, upperBound], add up to the required sum. Levels that cannot use their share stay
 * at their lower bound; the rest is shared in proportion to demand.
 */

/** One level's part in the problem: target >= lowerBound >= 0, upperBound >= lowerBound. */
export interface AllocationItem {
  readonly lowerBound: number;
  readonly upperBound: number;
  readonly target: number;
}

/** kube's MinTarget: a smaller target counts as this. */
const minTarget = 0.001;

/** The allocations and the fair proportion, or an error text when no allocation can sum to requiredSum. */
export function computeConcurrencyAllocation(
  requiredSum: number,
  items: readonly AllocationItem[],
): { readonly allocs: number[]; readonly fairProp: number } | { readonly error: string } {
  let lowerSum = 0;
  let upperSum = 0;
  for (const it of items) {
    if (!(it.lowerBound >= 0) || it.upperBound < it.lowerBound) return { error: `invalid bounds ${JSON.stringify(it)}` };
    lowerSum += it.lowerBound;
    upperSum += it.upperBound;
  }
  const slack = 1e-9 * Math.max(1, requiredSum);
  if (lowerSum > requiredSum + slack) return { error: `sum of lower bounds ${lowerSum} exceeds required sum ${requiredSum}` };
  if (upperSum < requiredSum - slack) return { error: `sum of upper bounds ${upperSum} is less than required sum ${requiredSum}` };
  const targets = items.map((it) => Math.max(it.target, minTarget));
  const breakpoints: number[] = [];
  items.forEach((it, i) => breakpoints.push(it.lowerBound / (targets[i] as number), it.upperBound / (targets[i] as number)));
  breakpoints.sort((a, b) => a - b);
  const total = (p: number): number => items.reduce((s, it, i) => s + Math.min(it.upperBound, Math.max(it.lowerBound, p * (targets[i] as number))), 0);
  let fairProp = 0;
  let prev = 0;
  if (total(0) < requiredSum) {
    fairProp = breakpoints[breakpoints.length - 1] as number;
    for (const bp of breakpoints) {
      const atBp = total(bp);
      if (atBp >= requiredSum) {
        // Between prev and bp every allocation is either fixed or p * target: linear, solve for p.
        const atPrev = total(prev);
        fairProp = atBp === atPrev ? bp : prev + ((requiredSum - atPrev) * (bp - prev)) / (atBp - atPrev);
        break;
      }
      prev = bp;
    }
  }
  const allocs = items.map((it, i) => Math.min(it.upperBound, Math.max(it.lowerBound, fairProp * (targets[i] as number))));
  return { allocs, fairProp };
}
