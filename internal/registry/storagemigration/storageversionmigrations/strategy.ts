/**
 * StorageVersionMigration rules (kube's pkg/registry/storagemigration/storagemigration): a spec
 * naming the resource to migrate that never changes; status written only through
 * storageversionmigrations/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, required, type FieldError } from '../../../validation/field-error.js';
import { asObject, objectAt, stringAt } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

function validateMigration(obj: KubeObject): FieldError[] {
  const resource = objectAt(asObject(obj.spec), 'resource');
  const errs: FieldError[] = [];
  if (!stringAt(resource, 'resource')) errs.push(required('spec.resource.resource', 'resource is required'));
  if (!stringAt(resource, 'version')) errs.push(required('spec.resource.version', 'version is required'));
  return errs;
}

/** The StorageVersionMigration strategy. */
export const storageVersionMigrationStrategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  validate: validateMigration,
  validateUpdate: (obj, old) => [...validateMigration(obj), ...(semanticEqual(obj.spec, old.spec) ? [] : [invalid('spec', obj.spec ?? null, 'field is immutable')])],
});
