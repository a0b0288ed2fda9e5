/**
 * What a watch cache is built from: the store under it, the field it may index, the metrics it
 * reports and its tuning (kube's cacher.Config).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { Storage } from '../interface.js';
import type { InitQueue } from './init-queue.js';

/** What the cache needs from the store under it beyond Storage (the etcd3 store has both). */
export interface CacheSource extends Storage {
  /** The revision now, the number of keys under key and their highest mod revision. */
  prefixState?(key: string): Promise<{ revision: bigint; count: number; maxModRevision: bigint }>;
  /** Whether revision has been compacted away. */
  isCompacted?(revision: bigint): Promise<boolean>;
}

/** A field the cache indexes (pods by spec.nodeName) for lists and watches that require a value of it. */
export interface IndexedField {
  readonly field: string;
  valueOf(obj: KubeObject): string;
}

/** Metrics the cache reports; all optional. */
export interface CacherMetrics {
  eventsReceived?(): void;
  eventsDispatched?(n: number): void;
  initialized?(): void;
  resourceVersion?(rv: number): void;
  capacity?(n: number): void;
  terminatedWatcher?(): void;
}

/** Options of one cache. */
export interface CacherOptions {
  /** The key prefix the resource's objects live under, e.g. "/pods". */
  readonly keyPrefix: string;
  readonly source: CacheSource;
  readonly indexedField?: IndexedField;
  readonly metrics?: CacherMetrics;
  /** How often watchers that allow bookmarks get one (kube: about a minute). */
  readonly bookmarkIntervalMs?: number;
  /** Live events a watcher may have queued before it is ended for being too slow. */
  readonly maxBufferedEvents?: number;
  /** How long the event window keeps events at least (kube's eventFreshDuration: 75 s). */
  readonly eventFreshMs?: number;
  /** The window's smallest and largest size (kube: 100 and 100 * 1024). */
  readonly minWindow?: number;
  readonly maxWindow?: number;
  /** How long a read waits for the cache to reach a resourceVersion (kube: 3 s). */
  readonly freshnessTimeoutMs?: number;
  /** How long a request waits for a (re)initializing cache before its 429 (default 3 s). */
  readonly notReadyWaitMs?: number;
  /** Where the cache waits for its turn to load (the server's caches share one); absent: it loads at once. */
  readonly initQueue?: InitQueue;
  /** Objects per page of the initial list (kube's reflector: 10,000). */
  readonly initialListPageSize?: number;
  readonly log?: (message: string) => void;
  /**
   * The ConsistentListFromCache gate (kube 1.33: on): a list at the most recent version ("") is
   * served from the cache once it is proven current; off, it is read from etcd.
   */
  readonly consistentListFromCache?: boolean;
}
