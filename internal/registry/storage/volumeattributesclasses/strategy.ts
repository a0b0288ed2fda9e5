/**
 * VolumeAttributesClass rules (kube's pkg/registry/storage/volumeattributesclass): a driver name
 * (a qualified name, as a provisioner) and at least one parameter, both fixed after creation.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { FieldError } from '../../../validation/field-error.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { forbidUpdate, validateParameters, validateProvisioner } from '../shared/validation.js';

/** ValidateVolumeAttributesClass without metadata. Never mutates. */
export function validateVolumeAttributesClass(obj: KubeObject): FieldError[] {
  return [
    ...validateProvisioner(typeof obj.driverName === 'string' ? obj.driverName : '', 'driverName'),
    ...validateParameters(obj.parameters, false, 'parameters'),
  ];
}

/** The VolumeAttributesClass strategy. */
export const volumeAttributesClassStrategy = defineStrategy({
  namespaced: false,
  validate: validateVolumeAttributesClass,
  validateUpdate: (obj, old) => [
    ...validateVolumeAttributesClass(obj),
    ...forbidUpdate(obj.parameters, old.parameters, 'parameters'),
    ...forbidUpdate(obj.driverName, old.driverName, 'driverName'),
  ],
});
