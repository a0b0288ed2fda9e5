/**
 * kube's watch tracker, by API group and resource: how many watches are open on a resource, which
 * the mutating work estimator turns into the seats a write's notifications take. kube also indexes
 * pods watches by spec.nodeName; here every watch of a resource counts for every write of it (an
 * over-estimate for kubelets' per-node pod watches).
 */
import type { RequestInfo } from '../../request/request-info.js';

/** Counts open watches per group and resource. */
export class WatchTracker {
  private readonly counts = new Map<string, number>();

  private static key(ri: RequestInfo): string {
    return `${ri.resource}.${ri.apiGroup}`;
  }

  /** Registers a watch; returns its forget (idempotent). */
  register(ri: RequestInfo): () => void {
    const key = WatchTracker.key(ri);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = (this.counts.get(key) ?? 1) - 1;
      if (n <= 0) this.counts.delete(key);
      else this.counts.set(key, n);
    };
  }

  /** The watches a write of ri's resource notifies. */
  interestedWatchCount(ri: RequestInfo): number {
    return this.counts.get(WatchTracker.key(ri)) ?? 0;
  }
}
