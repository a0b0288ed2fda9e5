/**
 * ReplicaSet validation (kube's ValidateReplicaSetSpec and status update): non-negative replicas
 * and minReadySeconds, a required non-empty selector matching the template's labels, a template
 * that runs with restartPolicy Always and no activeDeadlineSeconds.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { FieldError } from '../../../validation/field-error.js';
import { validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { asObject, objectAt } from '../../core/shared/json-value.js';
import { validateControllerTemplate } from '../../shared/pod-template-validation.js';
import { checkLabelSelector } from '../../shared/selector-validation.js';
import { validateReplicaCountStatus } from '../../shared/workload-status.js';

/** ValidateReplicaSetSpec. Never mutates. */
export function validateReplicaSet(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs = [...validateNonnegativeField(spec?.replicas, 'spec.replicas'), ...validateNonnegativeField(spec?.minReadySeconds, 'spec.minReadySeconds')];
  // kube's ReplicaSet message says "deployment": a copy from the Deployment validation it keeps for compatibility.
  const checked = checkLabelSelector(spec?.selector, 'spec.selector', { required: true, emptyWord: 'deployment' });
  errs.push(...checked.errs);
  if (checked.selector) errs.push(...validateControllerTemplate(objectAt(spec, 'template'), checked.selector, 'spec.template', { kind: 'ReplicaSet' }));
  return errs;
}

/** ValidateReplicaSetStatusUpdate without metadata. */
export function validateReplicaSetStatus(obj: KubeObject): FieldError[] {
  return validateReplicaCountStatus(obj, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'observedGeneration']);
}
