/**
 * StorageClass rules (kube's pkg/registry/storage/storageclass): a provisioner, parameters within
 * limits, reclaim policy Delete or Retain, a volume binding mode, and after creation unchanged
 * parameters, provisioner, reclaim policy and binding mode.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { forbidUpdate, validateParameters, validateProvisioner } from '../shared/validation.js';

const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];

/** ValidateStorageClass without metadata. Never mutates. */
export function validateStorageClass(obj: KubeObject): FieldError[] {
  const errs = validateProvisioner(typeof obj.provisioner === 'string' ? obj.provisioner : '', 'provisioner');
  errs.push(...validateParameters(obj.parameters, true, 'parameters'));
  const policy = obj.reclaimPolicy;
  if (typeof policy === 'string' && policy !== '' && !reclaimPolicies.includes(policy)) errs.push(notSupported('reclaimPolicy', policy, reclaimPolicies));
  const mode = obj.volumeBindingMode;
  if (mode === undefined || mode === null) errs.push(required('volumeBindingMode', ''));
  else if (typeof mode !== 'string' || !bindingModes.includes(mode)) errs.push(notSupported('volumeBindingMode', mode, bindingModes));
  return errs;
}

/** ValidateStorageClassUpdate without metadata. */
export function validateStorageClassUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  return [
    ...validateStorageClass(obj),
    ...forbidUpdate(obj.parameters, old.parameters, 'parameters'),
    ...forbidUpdate(obj.provisioner, old.provisioner, 'provisioner'),
    ...forbidUpdate(obj.reclaimPolicy, old.reclaimPolicy, 'reclaimPolicy'),
    ...validateImmutableField(obj.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode'),
  ];
}

/** The StorageClass strategy. */
export const storageClassStrategy = defineStrategy({
  namespaced: false,
  validate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
});

/** storage/v1 SetDefaults_StorageClass: reclaimPolicy Delete, volumeBindingMode Immediate. Mutates obj. */
export function defaultStorageClass(obj: KubeObject): void {
  if (obj.reclaimPolicy === undefined || obj.reclaimPolicy === null) obj.reclaimPolicy = 'Delete';
  if (obj.volumeBindingMode === undefined || obj.volumeBindingMode === null) obj.volumeBindingMode = 'Immediate';
}
