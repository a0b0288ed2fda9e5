/**
 * ResourceClaimTemplate rules (kube's pkg/registry/resource/resourceclaimtemplate): the claim
 * spec it stamps out is valid and never changes.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid } from '../../../validation/field-error.js';
import { asObject, objectAt } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateDeviceClaim } from '../shared/validation.js';

function validateTemplate(obj: KubeObject) {
  return validateDeviceClaim(objectAt(objectAt(asObject(obj.spec), 'spec'), 'devices'), 'spec.spec.devices');
}

/** The ResourceClaimTemplate strategy. */
export const resourceClaimTemplateStrategy = defineStrategy({
  namespaced: true,
  validate: validateTemplate,
  validateUpdate: (obj, old) => [...validateTemplate(obj), ...(semanticEqual(obj.spec, old.spec) ? [] : [invalid('spec', obj.spec ?? null, 'field is immutable')])],
});
