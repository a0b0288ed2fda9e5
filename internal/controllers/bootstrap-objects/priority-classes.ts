/**
 * The system PriorityClasses kube-apiserver creates at start (its
 * scheduling/bootstrap-system-priority-classes post-start hook): created when missing, never
 * updated (their value and globalDefault cannot change anyway), retried until both exist.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { ResourceClient } from '../resource-client.js';

/** kube's SystemPriorityClasses(), with their descriptions. */
export const systemPriorityClassObjects: readonly KubeObject[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2000001000,
    globalDefault: false,
    preemptionPolicy: 'PreemptLowerPriority',
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2000000000,
    globalDefault: false,
    preemptionPolicy: 'PreemptLowerPriority',
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** Creates the missing system PriorityClasses; throws (to be retried) when storage fails. */
export async function ensureSystemPriorityClasses(client: ResourceClient, log: (m: string) => void): Promise<void> {
  for (const pc of systemPriorityClassObjects) {
    const name = pc.metadata.name ?? '';
    try {
      await client.get(name);
      continue;
    } catch (err) {
      if (!hasReason(err, 'NotFound')) throw err;
    }
    try {
      await client.create(pc);
      log(`created PriorityClass ${name} with value ${String(pc.value)}`);
    } catch (err) {
      if (!hasReason(err, 'AlreadyExists')) throw err;
    }
  }
}
