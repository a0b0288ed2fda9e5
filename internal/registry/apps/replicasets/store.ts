/**
 * The replicasets resource of apps/v1, stored under /replicasets/<namespace>/<name>, with
 * replicasets/status and replicasets/scale.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { specReplicasMapping } from '../../generic/scale-store.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultField, defaultSpecTemplate, specOf } from '../../shared/workload-defaults.js';
import { replicaSetStatusStrategy, replicaSetStrategy } from './strategy.js';

/** apps/v1 SetObjectDefaults_ReplicaSet: replicas 1 and the template's pod defaults. Mutates obj. */
export function defaultReplicaSet(obj: KubeObject): void {
  const spec = specOf(obj);
  if (!spec) return;
  defaultField(spec, 'replicas', 1);
  defaultSpecTemplate(spec);
}

/** Builds the apps/v1 replicasets registration. */
export const replicaSetsModule = defineResourceModule({
  group: 'apps',
  resource: 'replicasets',
  kind: 'ReplicaSet',
  keyPrefix: '/replicasets',
  storageVersion: 'v1',
  strategy: replicaSetStrategy,
  versions: [{ version: 'v1', defaulter: defaultReplicaSet }],
  status: replicaSetStatusStrategy,
  scale: specReplicasMapping,
});
