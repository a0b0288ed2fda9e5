/**
 * A level's seat demand (seats executing plus seats waiting) integrated over time, and the
 * statistics kube's borrowing adjustment derives from it each period (apf_controller.go's
 * seatDemandStats, fairqueuing's Integrator): time-weighted average and standard deviation, high
 * watermark, and a smoothed envelope that rises at once and decays slowly.
 */

/** kube's seatDemandSmoothingCoefficient. */
const smoothingCoefficient = 0.977;

/** What one period of integration yields. */
export interface IntegratorResults {
  /** Milliseconds integrated over. */
  readonly duration: number;
  readonly average: number;
  readonly deviation: number;
  readonly max: number;
  readonly min: number;
}

/** Integrates a piecewise-constant value over time (now() in milliseconds). */
export class Integrator {
  private x = 0;
  private start: number;
  private last: number;
  private sumX = 0;
  private sumXX = 0;
  private max = 0;
  private min = 0;

  constructor(private readonly now: () => number) {
    this.start = this.last = now();
  }

  /** The value is x from now on. */
  set(x: number, now = this.now()): void {
    this.advance(now);
    this.x = x;
    if (x > this.max) this.max = x;
    if (x < this.min) this.min = x;
  }

  /** The results since the last reset; starts a new period at the current value. */
  reset(): IntegratorResults {
    this.advance(this.now());
    const duration = this.last - this.start;
    const average = duration > 0 ? this.sumX / duration : 0;
    const variance = duration > 0 ? this.sumXX / duration - average * average : 0;
    const results = { duration, average, deviation: Math.sqrt(Math.max(0, variance)), max: this.max, min: this.min };
    this.start = this.last;
    this.sumX = this.sumXX = 0;
    this.max = this.min = this.x;
    return results;
  }

  private advance(now: number): void {
    const dt = now - this.last;
    if (dt > 0) {
      this.sumX += this.x * dt;
      this.sumXX += this.x * this.x * dt;
      this.last = now;
    }
  }
}

/** kube's seatDemandStats: updated once per borrowing period. */
export class SeatDemandStats {
  avg = 0;
  stdDev = 0;
  highWatermark = 0;
  smoothed = 0;

  /** Folds one period's results in. */
  update(obs: IntegratorResults): void {
    this.highWatermark = obs.max;
    if (obs.duration <= 0) return;
    this.avg = obs.average;
    this.stdDev = Number.isNaN(obs.deviation) ? 0 : obs.deviation;
    const envelope = this.avg + this.stdDev;
    this.smoothed = Math.max(envelope, smoothingCoefficient * this.smoothed + (1 - smoothingCoefficient) * envelope);
  }
}
