/**
 * The statefulsets resource of apps/v1, stored under /statefulsets/<namespace>/<name>, with
 * statefulsets/status and statefulsets/scale.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { specReplicasMapping } from '../../generic/scale-store.js';
import { childObject, isEmptyString, isNil, objectsIn } from '../../core/shared/defaults-values.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultField, defaultSpecTemplate, specOf } from '../../shared/workload-defaults.js';
import { defaultPersistentVolumeClaim } from '../../core/persistentvolumeclaims/defaults.js';
import { statefulSetStatusStrategy, statefulSetStrategy, typeClaimTemplates } from './strategy.js';

/**
 * apps/v1 SetObjectDefaults_StatefulSet: podManagementPolicy OrderedReady, a RollingUpdate
 * strategy with partition 0, Retain/Retain claim retention, replicas 1, revisionHistoryLimit 10,
 * the template's pod defaults and each volume claim template's claim defaults. Mutates obj.
 */
export function defaultStatefulSet(obj: KubeObject): void {
  typeClaimTemplates(obj);
  const spec = specOf(obj);
  if (!spec) return;
  if (isEmptyString(spec.podManagementPolicy)) spec.podManagementPolicy = 'OrderedReady';
  if (isNil(spec.updateStrategy)) spec.updateStrategy = {};
  const strategy = childObject(spec, 'updateStrategy');
  if (strategy) {
    if (isEmptyString(strategy.type)) {
      strategy.type = 'RollingUpdate';
      if (isNil(strategy.rollingUpdate)) strategy.rollingUpdate = {};
    }
    const rollingUpdate = childObject(strategy, 'rollingUpdate');
    if (strategy.type === 'RollingUpdate' && rollingUpdate && isNil(rollingUpdate.partition)) rollingUpdate.partition = 0;
  }
  if (isNil(spec.persistentVolumeClaimRetentionPolicy)) spec.persistentVolumeClaimRetentionPolicy = {};
  const retention = childObject(spec, 'persistentVolumeClaimRetentionPolicy');
  if (retention) {
    if (isEmptyString(retention.whenDeleted)) retention.whenDeleted = 'Retain';
    if (isEmptyString(retention.whenScaled)) retention.whenScaled = 'Retain';
  }
  defaultField(spec, 'replicas', 1);
  defaultField(spec, 'revisionHistoryLimit', 10);
  defaultSpecTemplate(spec);
  for (const claim of objectsIn(spec, 'volumeClaimTemplates')) defaultPersistentVolumeClaim(claim as KubeObject);
}

/** Builds the apps/v1 statefulsets registration. */
export const statefulSetsModule = defineResourceModule({
  group: 'apps',
  resource: 'statefulsets',
  kind: 'StatefulSet',
  keyPrefix: '/statefulsets',
  storageVersion: 'v1',
  strategy: statefulSetStrategy,
  versions: [{ version: 'v1', defaulter: defaultStatefulSet }],
  status: statefulSetStatusStrategy,
  scale: specReplicasMapping,
});
