/**
 * The status rules shared by the replica-counting workloads (ReplicaSet, ReplicationController,
 * StatefulSet): non-negative counts that never exceed status.replicas, availableReplicas within
 * readyReplicas, and observedGeneration non-negative.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { invalid, type FieldError } from '../../validation/field-error.js';
import { validateNonnegativeField } from '../core/shared/field-immutable.js';
import { asObject, numberAt } from '../core/shared/json-value.js';

/** ValidateReplicaSetStatus / ValidateReplicationControllerStatus. */
export function validateReplicaCountStatus(obj: KubeObject, fields: readonly string[]): FieldError[] {
  const status = asObject(obj.status);
  const errs: FieldError[] = [];
  for (const f of fields) errs.push(...validateNonnegativeField(status?.[f], `status.${f}`));
  const n = (f: string): number => numberAt(status, f) ?? 0;
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'currentReplicas', 'updatedReplicas']) {
    if (fields.includes(f) && n(f) > n('replicas')) errs.push(invalid(`status.${f}`, n(f), msg));
  }
  if (fields.includes('availableReplicas') && n('availableReplicas') > n('readyReplicas')) {
    errs.push(invalid('status.availableReplicas', n('availableReplicas'), 'cannot be greater than readyReplicas'));
  }
  return errs;
}
