/**
 * ReplicationController validation (kube's ValidateReplicationControllerSpec and status update):
 * a non-empty selector map matching the template's labels, non-negative replicas and
 * minReadySeconds, a template with restartPolicy Always and no activeDeadlineSeconds.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { required, type FieldError } from '../../../validation/field-error.js';
import { labelSelectorFromSet } from '../../../selectors/labels.js';
import { validateLabels } from '../../../selectors/label-selector-object.js';
import { validateNonnegativeField } from '../shared/field-immutable.js';
import { asObject, objectAt } from '../shared/json-value.js';
import { validateControllerTemplate } from '../../shared/pod-template-validation.js';
import { validateReplicaCountStatus } from '../../shared/workload-status.js';

/** ValidateReplicationControllerSpec. Never mutates. */
export function validateReplicationController(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs = validateNonnegativeField(spec?.minReadySeconds, 'spec.minReadySeconds');
  const selectorMap = (objectAt(spec, 'selector') ?? {}) as Record<string, string>;
  errs.push(...validateLabels(selectorMap, 'spec.selector'));
  const selector = labelSelectorFromSet(selectorMap);
  if (selector.empty()) errs.push(required('spec.selector', ''));
  errs.push(...validateNonnegativeField(spec?.replicas, 'spec.replicas'));
  errs.push(...validateControllerTemplate(objectAt(spec, 'template'), selector, 'spec.template', { kind: 'ReplicationController' }));
  return errs;
}

/** ValidateReplicationControllerStatus without metadata. */
export function validateReplicationControllerStatus(obj: KubeObject): FieldError[] {
  return validateReplicaCountStatus(obj, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']);
}
