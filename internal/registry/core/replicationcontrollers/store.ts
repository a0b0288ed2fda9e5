/**
 * The replicationcontrollers resource of core/v1, stored under /controllers/<namespace>/<name>
 * (kube's special prefix), with replicationcontrollers/status and replicationcontrollers/scale.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject } from '../shared/defaults-values.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultField, defaultSpecTemplate, specOf } from '../../shared/workload-defaults.js';
import { replicationControllerScale, replicationControllerStatusStrategy, replicationControllerStrategy } from './strategy.js';

/**
 * core/v1 SetObjectDefaults_ReplicationController: selector and labels from the template's labels
 * when empty, replicas 1, and the template's pod defaults. Mutates obj.
 */
export function defaultReplicationController(obj: KubeObject): void {
  const spec = specOf(obj);
  if (!spec) return;
  const labels = childObject(childObject(childObject(spec, 'template'), 'metadata'), 'labels') as Record<string, string> | undefined;
  if (labels) {
    if (Object.keys(childObject(spec, 'selector') ?? {}).length === 0) spec.selector = { ...labels };
    if (Object.keys(obj.metadata.labels ?? {}).length === 0) obj.metadata.labels = { ...labels };
  }
  defaultField(spec, 'replicas', 1);
  defaultSpecTemplate(spec, true);
}

/** Builds the core/v1 replicationcontrollers registration. */
export const replicationControllersModule = defineResourceModule({
  group: '',
  resource: 'replicationcontrollers',
  kind: 'ReplicationController',
  keyPrefix: '/controllers',
  storageVersion: 'v1',
  strategy: replicationControllerStrategy,
  versions: [{ version: 'v1', defaulter: defaultReplicationController }],
  status: replicationControllerStatusStrategy,
  scale: replicationControllerScale,
});
