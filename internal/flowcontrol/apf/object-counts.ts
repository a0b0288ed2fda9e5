/**
 * The object counts the list work estimator reads (kube's storage object count tracker): the
 * number of keys under every resource's prefix, refreshed in the background every periodMs
 * (jittered), never on a request. A resource not counted yet is unknown (kube's
 * ObjectCountNotFoundErr), one whose last count failed or is older than three periods is stale
 * (kube's ObjectCountStaleErr).
 */
import type { ObjectCountSource } from '../../storage/etcd3/object-count.js';

/** A count, or why there is none. */
export type ObjectCount = number | 'unknown' | 'stale';

/** Counts per resource ("pods", "deployments.apps"), kept fresh in the background. */
export class ObjectCounts {
  private readonly counts = new Map<string, { n: number; at: number }>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(
    private readonly source: ObjectCountSource,
    private readonly periodMs: number,
  ) {}

  /** The count of resource (kube's GroupResource string: "pods", "deployments.apps"). */
  get(resource: string): ObjectCount {
    const c = this.counts.get(resource);
    if (!c) return 'unknown';
    if (c.n < 0 || Date.now() - c.at > 3 * this.periodMs) return 'stale';
    return c.n;
  }

  /** Starts counting (first at once). Idempotent. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One pass over every resource (exported for tests). */
  async refresh(): Promise<void> {
    await Promise.all(
      this.source.resources().map(async ({ resource, keyPrefix }) => {
        let n: number;
        try {
          n = await this.source.count(keyPrefix);
        } catch {
          n = -1;
        }
        this.counts.set(resource, { n, at: Date.now() });
      }),
    );
  }

  private async tick(): Promise<void> {
    await this.refresh();
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.periodMs * (1 + Math.random() * 0.5));
    this.timer.unref();
  }
}
