/**
 * Which resources the collector follows (kube's GC follows every deletable resource with a
 * metadata informer): every served resource whose storage lists, watches and deletes, one per
 * group/resource whatever its versions, minus the ones kube's controller manager ignores (events).
 * Its informers keep metadata only (as kube's metadata informers), fed by the watch caches.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { generatedResources } from '../../../api/gen/resources.js';
import type { Logger } from '../../observability/logging.js';
import { Informer } from '../informer.js';
import { listEverything, type RestStorage } from '../../registry/interface.js';
import { internalContext } from '../../request/context.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { StorageLookup } from '../shared-informers.js';
import type { GCResource, ObjectLookup, ResourceMapper } from './interface.js';
import { groupOf } from './interface.js';

/** kube-controller-manager's default --gc-ignored-resources. */
const ignored = new Set(['/events', 'events.k8s.io/events']);

/** A resource as the installer describes it (built-in from the API data, or served at run time). */
export interface ServedResourceFacts {
  readonly group: string;
  readonly resource: string;
  readonly kind: string;
  readonly version: string;
  readonly namespaced: boolean;
}

/** A mapper that also follows resources served at run time (custom resources). */
export interface DynamicResourceMapper extends ResourceMapper {
  /** Follows r when its storage lists, watches, updates and deletes; returns it, or undefined when not followed. */
  add(r: ServedResourceFacts): GCResource | undefined;
  /** Stops following group/resource; returns what was followed. */
  remove(group: string, resource: string): GCResource | undefined;
}

/** The mapper over the served resources: the built-in ones, then extra (custom resources served now). */
export function servedResources(storageOf: StorageLookup, extra: readonly ServedResourceFacts[] = []): DynamicResourceMapper {
  const byKind = new Map<string, GCResource>();
  let all: GCResource[] = [];
  const add = (r: ServedResourceFacts): GCResource | undefined => {
    const key = `${r.group}/${r.resource}`;
    if (ignored.has(key) || all.some((a) => a.group === r.group && a.resource === r.resource)) return undefined;
    const storage = storageOf(r.group, r.resource);
    if (!storage?.list || !storage.watch || !storage.delete || !storage.update) return undefined;
    const res: GCResource = { group: r.group, resource: r.resource, kind: r.kind, namespaced: r.namespaced, apiVersion: r.group ? `${r.group}/${r.version}` : r.version };
    all = [...all, res];
    byKind.set(`${r.group}/${r.kind}`, res);
    return res;
  };
  for (const r of generatedResources) add(r);
  for (const r of extra) add(r);
  return {
    resourceFor: (apiVersion, kind) => byKind.get(`${groupOf(apiVersion)}/${kind}`),
    all: () => all,
    add,
    remove(group, resource) {
      const res = all.find((a) => a.group === group && a.resource === resource);
      if (!res) return undefined;
      all = all.filter((a) => a !== res);
      if (byKind.get(`${group}/${res.kind}`) === res) byKind.delete(`${group}/${res.kind}`);
      return res;
    },
  };
}

/** Thrown when a resource's informer has not loaded its first list yet (the item is retried). */
export class NotSyncedError extends Error {}

/** What the collector keeps of an object: its kind and metadata (kube's PartialObjectMetadata). */
export function metadataOnly(obj: KubeObject): KubeObject {
  const m = obj.metadata;
  return {
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    metadata: {
      name: m.name ?? '',
      ...(m.namespace ? { namespace: m.namespace } : {}),
      uid: m.uid ?? '',
      resourceVersion: m.resourceVersion ?? '',
      ...(m.generation !== undefined ? { generation: m.generation } : {}),
      ...(m.deletionTimestamp ? { deletionTimestamp: m.deletionTimestamp } : {}),
      ...(m.ownerReferences ? { ownerReferences: m.ownerReferences } : {}),
      ...(m.finalizers ? { finalizers: m.finalizers } : {}),
    },
  };
}

/**
 * The collector's metadata informers, one per followed resource (fed by the watch caches). They
 * keep a copy only of the objects keep() names (those that take part in ownership: kube's
 * collector keeps every one, in kube-controller-manager, about 370 bytes each here); every object
 * still reaches the graph through their events. Lookups read the store, as kube's collector reads
 * the API: the object's current state from etcd for get, the watch cache for a whole list.
 */
export class MetadataInformers implements ObjectLookup {
  private readonly informers = new Map<string, Informer>();

  constructor(
    private readonly storageOf: StorageLookup,
    resources: readonly GCResource[],
    private readonly log: Logger,
    private readonly keep?: (obj: KubeObject) => boolean,
  ) {
    for (const r of resources) this.add(r);
  }

  /** Makes (without starting) the informer of r; undefined when r is not served. */
  add(r: GCResource): Informer | undefined {
    const storage = this.storageOf(r.group, r.resource);
    if (!storage) return undefined;
    const informer = new Informer({ storage, group: r.group, resource: r.resource, log: this.log, transform: metadataOnly, ...(this.keep ? { keep: this.keep } : {}) });
    this.informers.set(`${r.group}/${r.resource}`, informer);
    return informer;
  }

  /** Stops and forgets the informer of r. */
  remove(r: GCResource): void {
    const key = `${r.group}/${r.resource}`;
    this.informers.get(key)?.stop();
    this.informers.delete(key);
  }

  /** The informer of resource. */
  of(resource: GCResource): Informer {
    const informer = this.informers.get(`${resource.group}/${resource.resource}`);
    if (!informer) throw new NotSyncedError(`${resource.resource}.${resource.group} is not followed`);
    return informer;
  }

  private synced(resource: GCResource): RestStorage {
    if (!this.of(resource).hasSynced()) throw new NotSyncedError(`${resource.resource}.${resource.group} has not synced`);
    const storage = this.storageOf(resource.group, resource.resource);
    if (!storage) throw new NotSyncedError(`${resource.resource}.${resource.group} is not served`);
    return storage;
  }

  async get(resource: GCResource, namespace: string, name: string): Promise<KubeObject | undefined> {
    const storage = this.synced(resource);
    if (!storage.get) throw new NotSyncedError(`${resource.resource}.${resource.group} cannot be read`);
    const ns = resource.namespaced ? namespace : '';
    const ctx = internalContext({ verb: 'get', group: resource.group, resource: resource.resource, namespace: ns, name });
    try {
      return metadataOnly(await storage.get(ctx, name, { resourceVersion: '' }));
    } catch (err) {
      if (hasReason(err, 'NotFound')) return undefined;
      throw err;
    }
  }

  async list(resource: GCResource): Promise<KubeObject[]> {
    const storage = this.synced(resource);
    if (!storage.list) throw new NotSyncedError(`${resource.resource}.${resource.group} cannot be listed`);
    const ctx = internalContext({ verb: 'list', group: resource.group, resource: resource.resource });
    const list = await storage.list(ctx, { ...listEverything, resourceVersion: '0' });
    return list.items.map(metadataOnly);
  }

  /** Starts every informer. */
  start(): void {
    for (const i of this.informers.values()) i.start();
  }

  /** Stops every informer. */
  stop(): void {
    for (const i of this.informers.values()) i.stop();
  }
}
