/**
 * PersistentVolumeClaim validation (kube's ValidatePersistentVolumeClaim and its update rule):
 * at least one known access mode, a positive storage request, a known volume mode, and after
 * creation a spec that changes only in resources.requests (and volumeAttributesClassName) of a
 * bound claim, never shrinking below what the volume provides.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { forbidden, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { validateLabelSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from '../shared/json-value.js';
import { semanticEqual } from '../shared/semantic-equal.js';
import { quantityNanos, validatePositiveQuantity, validateResourceList } from '../../shared/quantity-validation.js';

/** The access modes kube knows. */
export const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
/** The volume modes kube knows. */
export const volumeModes = ['Block', 'Filesystem'];

/** Access modes at path: known values, ReadWriteOncePod alone. */
export function validateAccessModes(modes: unknown[], path: string, requiredMsg: string): FieldError[] {
  if (modes.length === 0) return [required(path, requiredMsg)];
  const errs: FieldError[] = [];
  for (const m of modes) if (typeof m !== 'string' || !accessModes.includes(m)) errs.push(notSupported(path, m, accessModes));
  if (modes.includes('ReadWriteOncePod') && modes.length > 1) {
    errs.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  }
  return errs;
}

/** ValidatePersistentVolumeClaimSpec at path. Never mutates. */
export function validateClaimSpec(spec: JsonObject | undefined, path: string): FieldError[] {
  const errs = validateAccessModes(arrayAt(spec, 'accessModes'), `${path}.accessModes`, 'at least 1 access mode is required');
  const selector = objectAt(spec, 'selector');
  if (selector) errs.push(...validateLabelSelector(selector as LabelSelectorObject, {}, `${path}.selector`));
  const resources = objectAt(spec, 'resources');
  const requests = objectAt(resources, 'requests');
  const storagePath = `${path}.resources[storage]`;
  if (!requests || requests.storage === undefined || requests.storage === null) errs.push(required(storagePath, ''));
  else errs.push(...validatePositiveQuantity(requests.storage, storagePath));
  errs.push(...validateResourceList(objectAt(resources, 'limits'), `${path}.resources.limits`));
  const mode = spec?.volumeMode;
  if (mode !== undefined && mode !== null && (typeof mode !== 'string' || !volumeModes.includes(mode))) {
    errs.push(notSupported(`${path}.volumeMode`, mode, volumeModes));
  }
  const vac = spec?.volumeAttributesClassName;
  if (vac === '') errs.push(required(`${path}.volumeAttributesClassName`, 'an empty string is disallowed'));
  return errs;
}

/** ValidatePersistentVolumeClaim without metadata. */
export function validateClaim(obj: KubeObject): FieldError[] {
  return validateClaimSpec(asObject(obj.spec), 'spec');
}

/** ValidatePersistentVolumeClaimUpdate without metadata. Never mutates. */
export function validateClaimUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateClaim(obj);
  const spec = structuredClone(asObject(obj.spec) ?? {});
  const oldSpec = structuredClone(asObject(old.spec) ?? {});
  const bound = stringAt(asObject(old.status), 'phase') === 'Bound';
  const newSize = objectAt(objectAt(spec, 'resources'), 'requests')?.storage;
  const oldSize = objectAt(objectAt(oldSpec, 'resources'), 'requests')?.storage;
  if (bound) {
    for (const s of [spec, oldSpec]) {
      const requests = objectAt(objectAt(s, 'resources'), 'requests');
      if (requests) delete requests.storage;
    }
  }
  delete spec.volumeAttributesClassName;
  delete oldSpec.volumeAttributesClassName;
  if (!semanticEqual(spec, oldSpec)) {
    errs.push(forbidden('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'));
  }
  const n = quantityNanos(newSize);
  const o = quantityNanos(oldSize);
  if (bound && n !== undefined && o !== undefined && n < o) {
    const capacity = quantityNanos(objectAt(asObject(old.status), 'capacity')?.storage);
    if (capacity === undefined || n < capacity) {
      errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
    }
  }
  return errs;
}
