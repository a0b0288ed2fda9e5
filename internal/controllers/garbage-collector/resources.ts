/**
 * Which resources the collector follows (kube's GC follows every deletable resource with a
 * metadata informer): every served resource whose storage lists, watches and deletes, one per
 * group/resource whatever its versions, minus the ones kube's controller manager ignores (events).
 * The informers are the server's shared ones, fed by the watch caches.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { generatedResources } from '../../../api/gen/resources.js';
import type { SharedInformers, StorageLookup } from '../shared-informers.js';
import type { GCResource, ObjectLookup, ResourceMapper } from './interface.js';
import { groupOf } from './interface.js';

/** kube-controller-manager's default --gc-ignored-resources. */
const ignored = new Set(['/events', 'events.k8s.io/events']);

/** The mapper over the served resources. */
export function servedResources(storageOf: StorageLookup): ResourceMapper {
  const byKind = new Map<string, GCResource>();
  const all: GCResource[] = [];
  for (const r of generatedResources) {
    const key = `${r.group}/${r.resource}`;
    if (ignored.has(key) || all.some((a) => a.group === r.group && a.resource === r.resource)) continue;
    const storage = storageOf(r.group, r.resource);
    if (!storage?.list || !storage.watch || !storage.delete || !storage.update) continue;
    const res: GCResource = { group: r.group, resource: r.resource, kind: r.kind, namespaced: r.namespaced, apiVersion: r.group ? `${r.group}/${r.version}` : r.version };
    all.push(res);
    byKind.set(`${r.group}/${r.kind}`, res);
  }
  return {
    resourceFor: (apiVersion, kind) => byKind.get(`${groupOf(apiVersion)}/${kind}`),
    all: () => all,
  };
}

/** Thrown when a resource's informer has not loaded its first list yet (the item is retried). */
export class NotSyncedError extends Error {}

/** Lookups through the shared informers. */
export function informerLookup(informers: SharedInformers): ObjectLookup {
  return {
    get(resource: GCResource, namespace: string, name: string): KubeObject | undefined {
      const informer = informers.get(resource.group, resource.resource);
      if (!informer.hasSynced()) throw new NotSyncedError(`${resource.resource}.${resource.group} has not synced`);
      return informer.get(resource.namespaced ? `${namespace}/${name}` : name);
    },
    list(resource: GCResource): Iterable<KubeObject> {
      return informers.get(resource.group, resource.resource).list();
    },
  };
}
