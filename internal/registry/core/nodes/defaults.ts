/**
 * kube's defaulting of core/v1 Nodes (SetObjectDefaults_Node): allocatable starts as a copy of
 * capacity when a node reports only capacity, and both lists hold quantities rounded to milli
 * precision in canonical form.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, isNil } from '../shared/defaults-values.js';
import { defaultResourceList } from '../shared/resource-list-defaults.js';

/** Defaults a decoded Node in place. Mutates obj; idempotent. */
export function defaultNode(obj: KubeObject): void {
  const status = childObject(obj as Record<string, unknown>, 'status');
  if (!status) return;
  if (isNil(status.allocatable) && !isNil(status.capacity)) status.allocatable = structuredClone(status.capacity);
  defaultResourceList(status.capacity);
  defaultResourceList(status.allocatable);
}
