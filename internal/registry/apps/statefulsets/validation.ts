/**
 * StatefulSet validation (kube's ValidateStatefulSetSpec and ValidateStatefulSetUpdate): pod
 * management and update strategies, the PVC retention policy, non-negative counts, a required
 * non-empty selector matching the template, restartPolicy Always, and on update only replicas,
 * ordinals, template, updateStrategy, revisionHistoryLimit, persistentVolumeClaimRetentionPolicy
 * and minReadySeconds may change.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { forbidden, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent, intOrPercentValue } from '../../shared/int-or-percent.js';
import { validateControllerTemplate } from '../../shared/pod-template-validation.js';
import { checkLabelSelector } from '../../shared/selector-validation.js';
import { validateReplicaCountStatus } from '../../shared/workload-status.js';

const retentionTypes = ['Retain', 'Delete'];

function validateRollingUpdate(ru: JsonObject): FieldError[] {
  const path = 'spec.updateStrategy.rollingUpdate';
  const errs: FieldError[] = [];
  if (ru.partition !== undefined && ru.partition !== null) errs.push(...validateNonnegativeField(ru.partition, `${path}.partition`));
  const maxUnavailable = ru.maxUnavailable;
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    errs.push(...validatePositiveIntOrPercent(maxUnavailable, `${path}.maxUnavailable`));
    if (intOrPercentValue(maxUnavailable) === 0) errs.push(invalid(`${path}.maxUnavailable`, maxUnavailable, 'cannot be 0'));
    errs.push(...isNotMoreThan100Percent(maxUnavailable, `${path}.maxUnavailable`));
  }
  return errs;
}

function validateRetentionPolicy(policy: JsonObject | undefined): FieldError[] {
  if (!policy) return [];
  const errs: FieldError[] = [];
  for (const f of ['whenDeleted', 'whenScaled']) {
    const v = stringAt(policy, f);
    if (!retentionTypes.includes(v)) errs.push(notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, v, retentionTypes));
  }
  return errs;
}

/** ValidateStatefulSetSpec. Never mutates. */
export function validateStatefulSet(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const pmp = stringAt(spec, 'podManagementPolicy');
  if (!pmp) errs.push(required('spec.podManagementPolicy', ''));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(invalid('spec.podManagementPolicy', pmp, "must be 'OrderedReady' or 'Parallel'"));
  const strategy = objectAt(spec, 'updateStrategy');
  const type = stringAt(strategy, 'type');
  const rollingUpdate = objectAt(strategy, 'rollingUpdate');
  if (!type) errs.push(required('spec.updateStrategy', ''));
  else if (type === 'OnDelete') {
    if (rollingUpdate) errs.push(invalid('spec.updateStrategy.rollingUpdate', rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
  } else if (type === 'RollingUpdate') {
    if (rollingUpdate) errs.push(...validateRollingUpdate(rollingUpdate));
  } else {
    errs.push(invalid('spec.updateStrategy', strategy, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  errs.push(...validateRetentionPolicy(objectAt(spec, 'persistentVolumeClaimRetentionPolicy')));
  errs.push(...validateNonnegativeField(spec?.replicas, 'spec.replicas'));
  const ordinals = objectAt(spec, 'ordinals');
  if (ordinals) errs.push(...validateNonnegativeField(numberAt(ordinals, 'start') ?? 0, 'spec.ordinals.start'));
  const checked = checkLabelSelector(spec?.selector, 'spec.selector', { required: true, emptyWord: 'statefulset', unparsableDetail: '' });
  errs.push(...checked.errs);
  if (checked.selector) errs.push(...validateControllerTemplate(objectAt(spec, 'template'), checked.selector, 'spec.template', { kind: 'StatefulSet' }));
  errs.push(...validateNonnegativeField(spec?.minReadySeconds, 'spec.minReadySeconds'));
  if (spec?.revisionHistoryLimit !== undefined && spec.revisionHistoryLimit !== null) {
    errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  }
  return errs;
}

const updatableFields = ['replicas', 'ordinals', 'template', 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy'];

/** ValidateStatefulSetUpdate without metadata. Never mutates. */
export function validateStatefulSetUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateStatefulSet(obj);
  const strip = (o: KubeObject): JsonObject => {
    const s = { ...(asObject(o.spec) ?? {}) };
    for (const f of updatableFields) delete s[f];
    return s;
  };
  if (!semanticEqual(strip(obj), strip(old))) {
    errs.push(
      forbidden(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errs;
}

/** ValidateStatefulSetStatus without metadata. */
export function validateStatefulSetStatus(obj: KubeObject): FieldError[] {
  const errs = validateReplicaCountStatus(obj, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration']);
  const status = asObject(obj.status);
  errs.push(...validateNonnegativeField(status?.collisionCount, 'status.collisionCount'));
  return errs;
}
