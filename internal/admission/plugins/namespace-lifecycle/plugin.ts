/**
 * NamespaceLifecycle (kube's admission plugin of that name): nothing is created in a namespace
 * that does not exist (404) or is being terminated (403, cause NamespaceTerminating), and the
 * immortal namespaces default, kube-system and kube-public cannot be deleted.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newForbidden, newNotFound } from '../../../apierrors/factories.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';

/** Namespaces that can never be deleted. */
export const immortalNamespaces: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

/**
 * Reads a namespace by name; undefined when it does not exist. live=false may answer from the watch
 * cache (kube's lister); live=true reads etcd.
 */
export type NamespaceLookup = (name: string, live: boolean) => Promise<KubeObject | undefined>;

/** How long after a namespace's deletion is admitted its lookups go to etcd (kube: 30 s). */
const forceLiveLookupMs = 30_000;

/** Review resources that kube lets through even into terminating namespaces. */
const accessReviewResources = new Set(['localsubjectaccessreviews', 'subjectaccessreviews', 'selfsubjectaccessreviews', 'tokenreviews']);

/** The NamespaceLifecycle plugin. */
export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = 'NamespaceLifecycle';

  /** Namespaces whose deletion was admitted recently, with when: the cache may not show it yet. */
  private readonly recentlyDeleted = new Map<string, number>();

  constructor(
    private readonly lookup: NamespaceLookup,
    private readonly now: () => number = Date.now,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'DELETE';
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    const isNamespace = attrs.group === '' && attrs.resource === 'namespaces';
    if (attrs.operation === 'DELETE') {
      if (isNamespace && attrs.subresource === '' && immortalNamespaces.has(attrs.name)) {
        throw newForbidden({ group: '', resource: 'namespaces' }, attrs.name, 'this namespace may not be deleted');
      }
      if (isNamespace && attrs.subresource === '') this.recentlyDeleted.set(attrs.name, this.now());
      return;
    }
    if (isNamespace || attrs.namespace === '' || accessReviewResources.has(attrs.resource)) return;
    // Like kube: the cached copy first; etcd when the cache does not have it (it may be new) or the
    // namespace's deletion was admitted moments ago (the cache may not show it terminating yet).
    let ns = this.forceLive(attrs.namespace) ? undefined : await this.lookup(attrs.namespace, false);
    if (!ns) ns = await this.lookup(attrs.namespace, true);
    if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, attrs.namespace);
    const phase = (ns.status as { phase?: string } | undefined)?.phase;
    if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
      const err = newForbidden(
        { group: attrs.group, resource: attrs.resource },
        attrs.name,
        `unable to create new content in namespace ${attrs.namespace} because it is being terminated`,
      );
      const details = err.status.details ?? {};
      details.causes = [
        ...(details.causes ?? []),
        { reason: 'NamespaceTerminating', message: `namespace ${attrs.namespace} is being terminated`, field: 'metadata.namespace' },
      ];
      err.status.details = details;
      throw err;
    }
  }

  private forceLive(namespace: string): boolean {
    if (this.recentlyDeleted.size === 0) return false;
    const now = this.now();
    for (const [name, at] of this.recentlyDeleted) if (now - at > forceLiveLookupMs) this.recentlyDeleted.delete(name);
    return this.recentlyDeleted.has(namespace);
  }
}
