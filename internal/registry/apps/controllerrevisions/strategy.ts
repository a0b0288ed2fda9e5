/**
 * ControllerRevision rules (kube's pkg/registry/apps/controllerrevision): data is required and
 * immutable, revision non-negative.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { required, type FieldError } from '../../../validation/field-error.js';
import { validateImmutableField, validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

function validateControllerRevision(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (obj.data === undefined || obj.data === null) errs.push(required('data', 'data is mandatory'));
  errs.push(...validateNonnegativeField(obj.revision, 'revision'));
  return errs;
}

/** The ControllerRevision strategy. */
export const controllerRevisionStrategy = defineStrategy({
  namespaced: true,
  validate: validateControllerRevision,
  validateUpdate: (obj, old) => [...validateControllerRevision(obj), ...validateImmutableField(obj.data, old.data, 'data')],
});
