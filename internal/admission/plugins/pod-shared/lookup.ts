/**
 * How the pod plugins read other objects: from a shared informer (kube's listers), waiting for its
 * first list when the server has just started, and, where kube's plugin does a live lookup on a
 * cache miss, from storage. A per-namespace index serves plugins that read all of a namespace's
 * objects (LimitRanger).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { hasReason } from '../../../apierrors/status-error.js';
import type { Informer } from '../../../controllers/informer.js';
import type { StorageLookup } from '../../../controllers/shared-informers.js';
import type { RestStorage } from '../../../registry/interface.js';
import { internalContext } from '../../../request/context.js';

/** How long a request waits for an informer's first list (kube's admission WaitForReady: 10 s). */
const readyTimeoutMs = 10_000;

/** Resolves true once the informer has synced, false when it has not after 10 s. Free once synced. */
export async function waitForReady(informer: Informer, timeoutMs = readyTimeoutMs): Promise<boolean> {
  if (informer.hasSynced()) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([informer.synced.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads one object from storage (etcd): undefined when it does not exist. */
export type LiveGet = (namespace: string, name: string) => Promise<KubeObject | undefined>;

/** A LiveGet of group/resource through the server's own store. */
export function liveGetter(storageOf: StorageLookup, group: string, resource: string): LiveGet {
  return async (namespace, name) => {
    const storage = storageOf(group, resource) as RestStorage | undefined;
    if (!storage?.get) return undefined;
    try {
      return await storage.get(internalContext({ verb: 'get', group, resource, namespace, name }), name, { resourceVersion: '' });
    } catch (err) {
      if (hasReason(err, 'NotFound')) return undefined;
      throw err;
    }
  };
}

/** The informer's copy of namespace/name (or cluster-scoped name). */
export function cached(informer: Informer, namespace: string, name: string): KubeObject | undefined {
  return informer.get(namespace ? `${namespace}/${name}` : name);
}

/** Objects of one namespaced resource grouped by namespace, kept current from an informer. */
export class NamespaceIndex {
  private readonly byNamespace = new Map<string, Map<string, KubeObject>>();

  constructor(readonly informer: Informer) {
    informer.addHandlers({
      added: (o) => this.put(o),
      updated: (o) => this.put(o),
      deleted: (o) => this.byNamespace.get(o.metadata.namespace ?? '')?.delete(o.metadata.name ?? ''),
    });
  }

  private put(o: KubeObject): void {
    const ns = o.metadata.namespace ?? '';
    let m = this.byNamespace.get(ns);
    if (!m) this.byNamespace.set(ns, (m = new Map()));
    m.set(o.metadata.name ?? '', o);
  }

  /** The namespace's objects (never mutate them). */
  list(namespace: string): KubeObject[] {
    const m = this.byNamespace.get(namespace);
    return m ? [...m.values()] : [];
  }
}
