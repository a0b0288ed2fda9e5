/**
 * StorageVersion rules (kube's pkg/registry/apiserverinternal/storageversion): the name is
 * <group>.<resource>; status starts empty and is written only through storageversions/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, type FieldError } from '../../../validation/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

/** ValidateStorageVersionName's messages for name. */
export function storageVersionNameErrors(name: string): string[] {
  const idx = name.lastIndexOf('.');
  if (idx < 0) return ['name must be in the form of <group>.<resource>'];
  return [
    ...isDNS1123Subdomain(name.slice(0, idx)).map((m) => `the group segment ${m}`),
    ...isDNS1035Label(name.slice(idx + 1)).map((m) => `the resource segment ${m}`),
  ];
}

function validateStorageVersion(obj: KubeObject): FieldError[] {
  const name = obj.metadata.name ?? '';
  return name ? storageVersionNameErrors(name).map((m) => invalid('metadata.name', name, m)) : [];
}

/** The StorageVersion strategy (the name rule is checked beyond the generic path-segment one). */
export const storageVersionStrategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  nameValidation: 'path-segment',
  validate: validateStorageVersion,
});
