/**
 * The server's etcd storage (kube's storage factory): one client per list of servers, all made by
 * one EtcdClientFactory with the same TLS files, the main store on --etcd-servers and, for each
 * --etcd-servers-overrides entry, its resource on a client, store, watch cache and compactor of its
 * own (kube's SetEtcdLocation: only the servers change). The storage the registry gets routes each
 * resource to its store by group and resource.
 */
import type { Etcd3 } from 'etcd3';
import type { ServerMetrics } from '../observability/metrics.js';
import { WatchCacheStorage } from '../storage/cacher/router.js';
import { EtcdClientFactory } from '../storage/etcd3/client.js';
import { startCompactor } from '../storage/etcd3/compactor.js';
import type { ObjectCountSource } from '../storage/etcd3/object-count.js';
import { Etcd3Store, type Etcd3StoreOptions } from '../storage/etcd3/store.js';
import type { Storage } from '../storage/interface.js';
import { defaultFeatureGates } from '../features/gates.js';
import { defaultEtcdOptions } from './options/etcd.js';
import type { ServerOptions } from './options/flags.js';

/** One list of etcd servers with its client, root store and (when on) watch caches. */
export interface EtcdBackend {
  readonly servers: readonly string[];
  readonly client: Etcd3;
  readonly store: Etcd3Store;
  readonly watchCache: WatchCacheStorage | undefined;
  /** What the registry uses: the watch cache, or the store without it. */
  readonly storage: Storage;
}

/** The server's etcd storage; stop in the order of the methods' comments. */
export interface EtcdStorage {
  readonly factory: EtcdClientFactory;
  /** --etcd-servers. */
  readonly main: EtcdBackend;
  /** The --etcd-servers-overrides backends by "group/resource". */
  readonly overrides: ReadonlyMap<string, EtcdBackend>;
  /** The storage the registry uses: each resource on its backend. */
  readonly storage: Storage;
  /** Object counts over every backend (apiserver_storage_objects). */
  readonly objectCounts: ObjectCountSource;
  /** Starts one compactor per backend (each etcd compacts on its own); returns stop. */
  startCompactors(intervalMs: number, log: (message: string) => void): () => void;
  /** Stops the watch caches (first at shutdown). */
  stopCaches(): void;
  /** Ends the stores' etcd watches. */
  closeWatches(): Promise<void>;
  /** Closes every client and stops following the TLS files (last). */
  close(): void;
}

/** Reads the TLS files (a missing or mismatched one throws) and builds every backend. */
export async function buildEtcdStorage(
  options: ServerOptions,
  deps: { readonly storeOptions: Etcd3StoreOptions; readonly metrics: ServerMetrics; readonly log: (message: string) => void },
): Promise<EtcdStorage> {
  const etcd = options.etcd ?? defaultEtcdOptions;
  const factory = await EtcdClientFactory.load(etcd);
  const backend = (servers: readonly string[]): EtcdBackend => {
    const client = factory.client(servers);
    const store = new Etcd3Store(client, deps.storeOptions);
    const watchCache = options.watchCache
      ? new WatchCacheStorage(store, { enabled: true, sizes: options.watchCacheSizes, defaultSize: options.defaultWatchCacheSize }, deps.metrics, {
          log: deps.log,
          consistentListFromCache: (options.featureGates ?? defaultFeatureGates).enabled('ConsistentListFromCache'),
          ...options.watchCacheTuning,
        })
      : undefined;
    return { servers, client, store, watchCache, storage: watchCache ?? store };
  };
  const main = backend(options.etcdServers);
  const overrides = new Map(etcd.serversOverrides.map((o) => [`${o.group}/${o.resource}`, backend(o.servers)] as const));
  factory.watch(deps.log);
  const all = [main, ...overrides.values()];
  return {
    factory,
    main,
    overrides,
    storage: overrides.size === 0 ? main.storage : new OverrideRouter(main.storage, overrides),
    objectCounts: combinedCounts(all),
    startCompactors(intervalMs, log) {
      const compactors = all.map((b) => startCompactor(b.client, intervalMs, log));
      return () => {
        for (const c of compactors) c.stop();
      };
    },
    stopCaches() {
      for (const b of all) b.watchCache?.stop();
    },
    async closeWatches() {
      await Promise.all(all.map((b) => b.store.closeWatches()));
    },
    close() {
      factory.stop();
      for (const b of all) b.client.close();
    },
  };
}

/**
 * Resources that share another's storage (kube's cohabitating resources): their objects live under
 * the other's keys, so the other's override applies to them.
 */
const cohabitating: ReadonlyMap<string, string> = new Map([['events.k8s.io/events', '/events']]);

/**
 * Storage that gives an overridden resource its backend's view. Calls outside forResource (the
 * few that use the root storage, e.g. the service IP allocator's) go to the main backend.
 */
class OverrideRouter implements Storage {
  constructor(
    private readonly main: Storage,
    private readonly overrides: ReadonlyMap<string, EtcdBackend>,
  ) {}

  forResource(gr: { readonly group: string; readonly resource: string }, keyPrefix: string): Storage {
    const name = `${gr.group}/${gr.resource}`;
    const target = this.overrides.get(cohabitating.get(name) ?? name)?.storage ?? this.main;
    return target.forResource?.(gr, keyPrefix) ?? target;
  }

  releaseResource(gr: { readonly group: string; readonly resource: string }, keyPrefix: string): void {
    const name = `${gr.group}/${gr.resource}`;
    (this.overrides.get(cohabitating.get(name) ?? name)?.storage ?? this.main).releaseResource?.(gr, keyPrefix);
  }

  create: Storage['create'] = (key, obj, opts) => this.main.create(key, obj, opts);
  get: Storage['get'] = (key, opts) => this.main.get(key, opts);
  getList: Storage['getList'] = (key, opts) => this.main.getList(key, opts);
  guaranteedUpdate: Storage['guaranteedUpdate'] = (key, opts) => this.main.guaranteedUpdate(key, opts);
  delete: Storage['delete'] = (key, opts) => this.main.delete(key, opts);
  watch: Storage['watch'] = (key, opts) => this.main.watch(key, opts);
  currentRevision: Storage['currentRevision'] = () => this.main.currentRevision();
  readinessCheck: Storage['readinessCheck'] = () => this.main.readinessCheck();
}

/** Counts each resource on the store it lives on. */
function combinedCounts(backends: readonly EtcdBackend[]): ObjectCountSource {
  const owner = new Map<string, Etcd3Store>();
  return {
    resources() {
      owner.clear();
      const out: Array<{ resource: string; keyPrefix: string }> = [];
      for (const b of backends) {
        for (const r of b.store.resources()) {
          owner.set(r.keyPrefix, b.store);
          out.push(r);
        }
      }
      return out;
    },
    count: (keyPrefix) => (owner.get(keyPrefix) ?? (backends[0] as EtcdBackend).store).count(keyPrefix),
  };
}
