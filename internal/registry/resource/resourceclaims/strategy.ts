/**
 * ResourceClaim rules (kube's pkg/registry/resource/resourceclaim): valid device requests, a spec
 * that never changes, and a status (allocation, reservations) written only through
 * resourceclaims/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid } from '../../../validation/field-error.js';
import { asObject, objectAt } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateDeviceClaim } from '../shared/validation.js';

function validateClaim(obj: KubeObject) {
  return validateDeviceClaim(objectAt(asObject(obj.spec), 'devices'), 'spec.devices');
}

/** The ResourceClaim strategy. */
export const resourceClaimStrategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  validate: validateClaim,
  validateUpdate: (obj, old) => [...validateClaim(obj), ...(semanticEqual(obj.spec, old.spec) ? [] : [invalid('spec', obj.spec ?? null, 'field is immutable')])],
});
