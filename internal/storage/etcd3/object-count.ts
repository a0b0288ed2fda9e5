/**
 * apiserver_storage_objects: every --etcd-count-metric-poll-period (jittered by up to half of it,
 * as kube's wait.JitterUntil, first at once), the number of keys under each resource's prefix, or
 * -1 when counting failed (kube's startObservingCount).
 */
import type { GaugeVec } from '../../observability/vectors.js';

/** What counting needs from the store: its resources and a count per key prefix. */
export interface ObjectCountSource {
  resources(): ReadonlyArray<{ readonly resource: string; readonly keyPrefix: string }>;
  count(keyPrefix: string): Promise<number>;
}

/** Starts counting into gauge (labelled by resource); returns stop. periodMs 0 disables it. */
export function startObjectCounting(source: ObjectCountSource, periodMs: number, gauge: GaugeVec): () => void {
  if (periodMs <= 0) return () => undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async (): Promise<void> => {
    await Promise.all(
      source.resources().map(async ({ resource, keyPrefix }) => {
        let n: number;
        try {
          n = await source.count(keyPrefix);
        } catch {
          n = -1;
        }
        if (!stopped) gauge.labels(resource).set(n);
      }),
    );
    if (stopped) return;
    timer = setTimeout(() => void tick(), periodMs + Math.random() * 0.5 * periodMs);
    timer.unref();
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
