/**
 * PersistentVolume validation (kube's ValidatePersistentVolume and its update rule): access
 * modes, a capacity of exactly "storage" that is positive, a known reclaim policy and volume
 * mode, exactly one volume source, and after creation an unchanged source and volume mode.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { forbidden, keyPath, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { arrayAt, asObject, objectAt, stringAt } from '../shared/json-value.js';
import { semanticEqual } from '../shared/semantic-equal.js';
import { validateImmutableField } from '../shared/field-immutable.js';
import { validateAccessModes, volumeModes } from '../persistentvolumeclaims/validation.js';
import { validatePositiveQuantity } from '../../shared/quantity-validation.js';

/** The volume sources of a PersistentVolumeSource, in the order kube checks them. */
export const persistentVolumeSources = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'iscsi',
  'cinder', 'fc', 'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO',
  'local', 'storageos', 'csi',
];

const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];

/** ValidatePersistentVolumeSpec for a PersistentVolume object. Never mutates. */
export function validatePersistentVolume(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs = validateAccessModes(arrayAt(spec, 'accessModes'), 'spec.accessModes', '');
  const capacity = objectAt(spec, 'capacity') ?? {};
  const names = Object.keys(capacity);
  if (names.length === 0) errs.push(required('spec.capacity', ''));
  if (!('storage' in capacity) || names.length > 1) errs.push(notSupported('spec.capacity', capacity, ['storage']));
  for (const name of names.sort()) errs.push(...validatePositiveQuantity(capacity[name], keyPath('spec.capacity', name)));
  const mode = spec?.volumeMode;
  if (mode !== undefined && mode !== null && (typeof mode !== 'string' || !volumeModes.includes(mode))) errs.push(notSupported('spec.volumeMode', mode, volumeModes));
  const policy = stringAt(spec, 'persistentVolumeReclaimPolicy');
  if (policy && !reclaimPolicies.includes(policy)) errs.push(notSupported('spec.persistentVolumeReclaimPolicy', policy, reclaimPolicies));
  let sources = 0;
  for (const source of persistentVolumeSources) {
    if (spec?.[source] === undefined || spec[source] === null) continue;
    if (sources > 0) errs.push(forbidden(`spec.${source}`, 'may not specify more than 1 volume type'));
    sources++;
  }
  if (sources === 0) errs.push(required('spec', 'must specify a volume type'));
  const hostPath = stringAt(objectAt(spec, 'hostPath'), 'path');
  if (hostPath && hostPath.replace(/\/+$/, '') === '' && policy === 'Recycle') {
    errs.push(forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  return errs;
}

/** ValidatePersistentVolumeUpdate without metadata. Never mutates. */
export function validatePersistentVolumeUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePersistentVolume(obj);
  const spec = asObject(obj.spec);
  const oldSpec = asObject(old.spec);
  const changed = persistentVolumeSources.some((s) => !semanticEqual(spec?.[s], oldSpec?.[s]));
  if (changed) errs.push(forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
  errs.push(...validateImmutableField(spec?.volumeMode, oldSpec?.volumeMode, 'volumeMode'));
  if (oldSpec?.nodeAffinity !== undefined && oldSpec.nodeAffinity !== null) {
    errs.push(...validateImmutableField(spec?.nodeAffinity, oldSpec.nodeAffinity, 'nodeAffinity'));
  }
  return errs;
}
