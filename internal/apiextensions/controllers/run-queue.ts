/**
 * The loop every CRD controller runs: a work queue of CRD names fed by the informer's events and
 * drained only once the informer has its first complete list (a decision such as a name conflict
 * must see every CRD), one name at a time, failures retried.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { WorkQueue } from '../../controllers/work-queue.js';
import type { CrdControllerDeps } from './interface.js';

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

/** Starts a queue processing names with sync once the informer synced; a name fails at most maxRetries times in a row. */
export function runCrdQueue(
  controller: string,
  deps: CrdControllerDeps,
  sync: (name: string) => Promise<void>,
  filters: QueueFilters,
  maxRetries = 15,
): CrdQueue {
  // Every failure is logged, as kube's HandleError does, then retried.
  const logged = async (name: string): Promise<void> => {
    try {
      await sync(name);
    } catch (err) {
      deps.log.warn(`${controller}: ${name} failed with: ${(err as Error).message}`);
      throw err;
    }
  };
  const queue = new WorkQueue(logged, {
    retryMs: deps.retryMs ?? 1000,
    maxRetries,
    onDrop: (key) => deps.log.warn(`${controller}: ${key} dropped out of the queue after ${maxRetries} failures`),
  });
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const nameOf = (crd: KubeObject): string => crd.metadata.name ?? '';
  void deps.informer.synced.then(() => {
    if (stopped) return;
    deps.informer.addHandlers({
      added: (crd) => (filters.added?.(crd) ?? true) && queue.add(nameOf(crd)),
      updated: (crd, old) => (filters.updated?.(crd, old) ?? true) && queue.add(nameOf(crd)),
      deleted: (crd) => (filters.deleted?.(crd) ?? false) && queue.add(nameOf(crd)),
    });
  });
  return {
    add: (name) => queue.add(name),
    addAfter(name, ms) {
      if (ms <= 0) return queue.add(name);
      const t = setTimeout(() => {
        timers.delete(t);
        queue.add(name);
      }, ms);
      t.unref();
      timers.add(t);
    },
    stop() {
      stopped = true;
      queue.stop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
