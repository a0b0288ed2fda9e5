/**
 * kube's one-time migrations of old clusters' RBAC data, run before each reconciliation: the rules
 * admin, edit and view held before they were aggregated move to system:aggregate-to-*, and the
 * subjects of system:discovery are copied to system:public-info-viewer when it was split out.
 * Each does nothing once its target exists.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { ResourceClient } from '../../controllers/resource-client.js';
import type { Logger } from '../../observability/logging.js';
import type { BindingObject, RoleObject } from '../rbac/types.js';
import { clusterRoleBindingsToSplit, clusterRolesToAggregate } from './policy.js';

/** primeAggregatedClusterRoles: copies the pre-aggregation rules of admin, edit and view once. existing is keyed "/<name>". */
export async function primeAggregatedClusterRoles(client: ResourceClient, existing: ReadonlyMap<string, KubeObject>, log: Logger): Promise<void> {
  for (const [oldName, newName] of Object.entries(clusterRolesToAggregate)) {
    if (existing.has(`/${newName}`)) continue;
    const old = existing.get(`/${oldName}`) as RoleObject | undefined;
    if (!old) continue;
    // The old role is already aggregated: there is nothing of a user's left to migrate.
    if (old.aggregationRule) return;
    log.v(1, `migrating ${oldName} to ${newName}`);
    const copy = structuredClone(old);
    copy.metadata = { ...copy.metadata, name: newName };
    delete copy.metadata.resourceVersion;
    delete copy.metadata.uid;
    delete copy.metadata.creationTimestamp;
    try {
      await client.create(copy);
    } catch (err) {
      if (!hasReason(err, 'AlreadyExists')) throw err;
    }
  }
}

/** primeSplitClusterRoleBindings: gives a binding split out of an existing one that one's subjects, once. */
export async function primeSplitClusterRoleBindings(client: ResourceClient, existing: ReadonlyMap<string, KubeObject>, log: Logger): Promise<void> {
  for (const [sourceName, target] of Object.entries(clusterRoleBindingsToSplit())) {
    const source = existing.get(`/${sourceName}`) as BindingObject | undefined;
    if (!source || existing.has(`/${target.metadata.name ?? ''}`)) continue;
    log.v(1, `copying subjects, labels, and annotations from ClusterRoleBinding "${sourceName}" to template "${target.metadata.name ?? ''}"`);
    const created: BindingObject = {
      ...target,
      metadata: { ...target.metadata, labels: { ...source.metadata.labels }, annotations: { ...source.metadata.annotations } },
      ...(source.subjects ? { subjects: structuredClone(source.subjects) } : {}),
    };
    try {
      await client.create(created);
    } catch (err) {
      if (!hasReason(err, 'AlreadyExists')) throw err;
    }
  }
}
