/**
 * The loop every CRD controller runs: a work queue of CRD names fed by the informer's events and
 * drained only once the informer has its first complete list (a decision such as a name conflict
 * must see every CRD), one name at a time. A failure is logged and the name retried after a delay
 * that doubles with each failure in a row (client-go's per-item exponential backoff: 5 ms up to
 * 1000 s), without end: informer events queue it again at once anyway.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { WorkQueue } from '../../controllers/work-queue.js';
import type { CrdControllerDeps } from './interface.js';

/** client-go's DefaultControllerRateLimiter bounds. */
const maxBackoffMs = 1000 * 1000;

/** How a controller reacts to the informer; each returns whether to queue the CRD's name. */
export interface QueueFilters {
  added?(crd: KubeObject): boolean;
  updated?(crd: KubeObject, old: KubeObject): boolean;
  deleted?(crd: KubeObject): boolean;
}

/** A running queue: add(name) queues, addAfter delays, stop ends it. */
export interface CrdQueue {
  add(name: string): void;
  addAfter(name: string, ms: number): void;
  stop(): void;
}

/** Starts a queue processing names with sync once the informer synced. */
export function runCrdQueue(controller: string, deps: CrdControllerDeps, sync: (name: string) => Promise<void>, filters: QueueFilters): CrdQueue {
  const failures = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const addAfter = (name: string, ms: number): void => {
    if (stopped) return;
    if (ms <= 0) return queue.add(name);
    const t = setTimeout(() => {
      timers.delete(t);
      queue.add(name);
    }, ms);
    t.unref();
    timers.add(t);
  };
  const queue = new WorkQueue(async (name) => {
    try {
      await sync(name);
      failures.delete(name);
    } catch (err) {
      const n = (failures.get(name) ?? 0) + 1;
      failures.set(name, n);
      deps.log.warn(`${controller}: ${name} failed with: ${(err as Error).message}`);
      addAfter(name, Math.min((deps.retryMs ?? 5) * 2 ** (n - 1), maxBackoffMs));
    }
  });
  const nameOf = (crd: KubeObject): string => crd.metadata.name ?? '';
  void deps.informer.synced.then(() => {
    if (stopped) return;
    deps.informer.addHandlers({
      added: (crd) => (filters.added?.(crd) ?? true) && queue.add(nameOf(crd)),
      updated: (crd, old) => (filters.updated?.(crd, old) ?? true) && queue.add(nameOf(crd)),
      deleted: (crd) => {
        failures.delete(nameOf(crd));
        if (filters.deleted?.(crd) ?? false) queue.add(nameOf(crd));
      },
    });
  });
  return {
    add: (name) => queue.add(name),
    addAfter,
    stop() {
      stopped = true;
      queue.stop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
