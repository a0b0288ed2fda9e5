/**
 * The daemonsets resource of apps/v1, stored under /daemonsets/<namespace>/<name>, with daemonsets/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, isEmptyString, isNil } from '../../core/shared/defaults-values.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultField, defaultSpecTemplate, specOf } from '../../shared/workload-defaults.js';
import { daemonSetStatusStrategy, daemonSetStrategy } from './strategy.js';

/**
 * apps/v1 SetObjectDefaults_DaemonSet: a RollingUpdate strategy with maxUnavailable 1 and
 * maxSurge 0, revisionHistoryLimit 10, and the template's pod defaults. Mutates obj.
 */
export function defaultDaemonSet(obj: KubeObject): void {
  const spec = specOf(obj);
  if (!spec) return;
  if (isNil(spec.updateStrategy)) spec.updateStrategy = {};
  const strategy = childObject(spec, 'updateStrategy');
  if (strategy) {
    if (isEmptyString(strategy.type)) strategy.type = 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      if (isNil(strategy.rollingUpdate)) strategy.rollingUpdate = {};
      const ru = childObject(strategy, 'rollingUpdate');
      if (ru) {
        defaultField(ru, 'maxUnavailable', 1);
        defaultField(ru, 'maxSurge', 0);
      }
    }
  }
  defaultField(spec, 'revisionHistoryLimit', 10);
  defaultSpecTemplate(spec);
}

/** Builds the apps/v1 daemonsets registration. */
export const daemonSetsModule = defineResourceModule({
  group: 'apps',
  resource: 'daemonsets',
  kind: 'DaemonSet',
  keyPrefix: '/daemonsets',
  storageVersion: 'v1',
  strategy: daemonSetStrategy,
  versions: [{ version: 'v1', defaulter: defaultDaemonSet }],
  status: daemonSetStatusStrategy,
});
