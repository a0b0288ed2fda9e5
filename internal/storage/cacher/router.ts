/**
 * The watch cache layer over the etcd store: every resource gets its own Cacher (through
 * Storage.forResource, which the registry's generic store calls with its key prefix), unless
 * --watch-cache=false or --watch-cache-sizes turns it off for that resource. Everything else
 * (keys no resource owns, such as allocator state) goes straight to the store.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { ServerMetrics } from '../../observability/metrics.js';
import type { DeleteOptions, GetOptions, GuaranteedUpdateOptions, ListOptions, ListResult, Storage, StorageWatch, CreateOptions } from '../interface.js';
import { Cacher, type CacheSource, type CacherOptions, type IndexedField } from './cacher.js';
import { InitQueue } from './init-queue.js';

/**
 * How many caches load their initial state at once (a cache a request waits for starts anyway):
 * enough to overlap etcd's answers with decoding, few enough that each finishes soon.
 */
const initConcurrency = 4;

/** A group and resource ("" group for the core API). */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** How the watch cache is configured (kube's --watch-cache, --watch-cache-sizes, --default-watch-cache-size). */
export interface WatchCacheConfig {
  readonly enabled: boolean;
  /** Sizes by "resource" or "resource.group"; only 0 matters (it turns the cache off for that resource). */
  readonly sizes: ReadonlyMap<string, number>;
  /** --default-watch-cache-size: 0 turns the cache off for resources without a size of their own. */
  readonly defaultSize: number;
}

/** kube's DefaultWatchCacheSizes: events are not cached unless a size is given for them. */
export const defaultWatchCacheSizes: ReadonlyMap<string, number> = new Map([
  ['events', 0],
  ['events.events.k8s.io', 0],
]);

/** "pods" or "deployments.apps": how --watch-cache-sizes names a resource. */
export function groupResourceName(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/** Whether the cache serves gr under config. */
export function cacheEnabledFor(config: WatchCacheConfig, gr: GroupResource): boolean {
  if (!config.enabled) return false;
  const name = groupResourceName(gr);
  const size = config.sizes.get(name) ?? defaultWatchCacheSizes.get(name) ?? config.defaultSize;
  return size !== 0;
}

/** Fields the cache indexes, by resource (kube indexes pods by spec.nodeName). */
const indexedFields: ReadonlyMap<string, IndexedField> = new Map([
  [
    'pods',
    {
      field: 'spec.nodeName',
      valueOf: (obj: KubeObject) => {
        const spec = obj.spec as { nodeName?: unknown } | undefined;
        return typeof spec?.nodeName === 'string' ? spec.nodeName : '';
      },
    },
  ],
]);

/** Storage with a watch cache per resource; the caches load in the order of one InitQueue. */
export class WatchCacheStorage implements Storage {
  private readonly cachers = new Map<string, Cacher>();
  private readonly initQueue = new InitQueue(initConcurrency);

  constructor(
    private readonly source: CacheSource,
    private readonly config: WatchCacheConfig,
    private readonly metrics?: ServerMetrics,
    private readonly cacherOptions: Partial<CacherOptions> = {},
  ) {}

  forResource(gr: GroupResource, keyPrefix: string): Storage {
    // The resource's own view of the store (its encryption at rest), under its cache or alone.
    const source = (this.source.forResource?.(gr, keyPrefix) ?? this.source) as CacheSource;
    if (!cacheEnabledFor(this.config, gr)) return source;
    let c = this.cachers.get(keyPrefix);
    if (!c) {
      const name = groupResourceName(gr);
      const m = this.metrics;
      const indexedField = indexedFields.get(name);
      c = new Cacher({
        keyPrefix,
        source,
        ...(indexedField ? { indexedField } : {}),
        ...(m
          ? {
              metrics: {
                eventsReceived: () => m.watchCacheEventsReceived.inc({ resource: name }),
                eventsDispatched: (n) => m.watchCacheEventsDispatched.inc({ resource: name }, n),
                initialized: () => m.watchCacheInitializations.inc({ resource: name }),
                resourceVersion: (rv) => m.watchCacheResourceVersion.set({ resource: name }, rv),
                capacity: (n) => m.watchCacheCapacity.set({ resource: name }, n),
                terminatedWatcher: () => m.terminatedWatchers.inc({ resource: name }),
              },
            }
          : {}),
        initQueue: this.initQueue,
        ...this.cacherOptions,
      });
      this.cachers.set(keyPrefix, c);
    }
    return c;
  }

  releaseResource(gr: GroupResource, keyPrefix: string): void {
    this.cachers.get(keyPrefix)?.stop();
    this.cachers.delete(keyPrefix);
    this.source.releaseResource?.(gr, keyPrefix);
  }

  /** The cache serving keyPrefix, if one was made (tests). */
  cacherFor(keyPrefix: string): Cacher | undefined {
    return this.cachers.get(keyPrefix);
  }

  /** Resolves when every cache made so far has its initial state. */
  async waitReady(): Promise<void> {
    await Promise.all([...this.cachers.values()].map((c) => c.waitReady()));
  }

  /** Stops every cache (shutdown): their etcd watches and their watchers end. */
  stop(): void {
    for (const c of this.cachers.values()) c.stop();
  }

  create(key: string, obj: KubeObject, opts?: CreateOptions): Promise<KubeObject> {
    return this.source.create(key, obj, opts);
  }
  get(key: string, opts: GetOptions): Promise<KubeObject> {
    return this.source.get(key, opts);
  }
  getList(key: string, opts: ListOptions): Promise<ListResult> {
    return this.source.getList(key, opts);
  }
  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<KubeObject> {
    return this.source.guaranteedUpdate(key, opts);
  }
  delete(key: string, opts: DeleteOptions): Promise<KubeObject> {
    return this.source.delete(key, opts);
  }
  watch(key: string, opts: ListOptions): Promise<StorageWatch> {
    return this.source.watch(key, opts);
  }
  currentRevision(): Promise<string> {
    return this.source.currentRevision();
  }
  readinessCheck(): Promise<void> {
    return this.source.readinessCheck();
  }
}
