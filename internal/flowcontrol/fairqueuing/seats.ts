/**
 * How the server's concurrency limit becomes seats per priority level, as kube's
 * apf_controller.go (finishQueueSetReconfigsLocked) computes them: each level's nominal limit is
 * its share of the server limit (rounded up; the sum of shares includes every level, the exempt
 * one and levels still draining); lendablePercent of it may be lent, borrowingLimitPercent of it
 * borrowed (no limit when unset: the whole server limit). A queuing level's most seats for one
 * request are max(1, min(ceil(15% of nominal), nominal / handSize)), and the work estimator never
 * goes past 10 (kube's maximumSeatsLimit).
 */
import type { PriorityLevelSpec } from '../interface.js';

/** kube's MaximumSeatsLimit of the work estimator: no request takes more seats. */
export const maximumSeatsLimit = 10;

/** kube's priorityLevelMaxSeatsPercent. */
const maxSeatsFraction = 0.15;

/** The seats a level's configuration gives it (before borrowing). */
export interface LevelSeats {
  /** NominalCL: ceil(serverConcurrencyLimit * shares / sum of shares). */
  readonly nominalCL: number;
  /** round(nominalCL * lendablePercent / 100). */
  readonly lendableCL: number;
  /** round(nominalCL * borrowingLimitPercent / 100), or the server limit when unset. */
  readonly borrowingCL: number;
  /** nominalCL - lendableCL: the lower bound of the current limit. */
  readonly minCL: number;
  /** nominalCL + borrowingCL: the upper bound of the current limit. */
  readonly maxCL: number;
  /** The most seats one request may take (0: the level does not queue; the estimator's own limit applies). */
  readonly maxSeats: number;
}

/** Computes every level's seats; levels are all those that exist (new and draining). */
export function computeLevelSeats(serverConcurrencyLimit: number, levels: readonly PriorityLevelSpec[]): Map<string, LevelSeats> {
  let shareSum = 0;
  for (const l of levels) shareSum += l.nominalConcurrencyShares;
  const out = new Map<string, LevelSeats>();
  for (const l of levels) {
    const nominalCL = shareSum > 0 ? Math.ceil((serverConcurrencyLimit * l.nominalConcurrencyShares) / shareSum) : 0;
    const lendableCL = Math.round((nominalCL * l.lendablePercent) / 100);
    const borrowingCL = l.borrowingLimitPercent === undefined ? serverConcurrencyLimit : Math.round((nominalCL * l.borrowingLimitPercent) / 100);
    let maxSeats = 0;
    if (!l.exempt && l.queuing) {
      maxSeats = Math.max(1, Math.min(Math.ceil(nominalCL * maxSeatsFraction), Math.floor(nominalCL / l.queuing.handSize)));
    }
    out.set(l.name, { nominalCL, lendableCL, borrowingCL, minCL: nominalCL - lendableCL, maxCL: nominalCL + borrowingCL, maxSeats });
  }
  return out;
}

/** The current limit a new level starts with: nominal minus half of what it may lend. */
export function initialCurrentCL(seats: LevelSeats): number {
  return seats.nominalCL - Math.floor(seats.lendableCL / 2);
}

/** What the work estimator may give one request of a level with these seats. */
export function effectiveMaxSeats(seats: LevelSeats | undefined): number {
  const m = seats?.maxSeats ?? 0;
  return m === 0 || m > maximumSeatsLimit ? maximumSeatsLimit : m;
}
