/**
 * CSINode rules (kube's pkg/registry/storage/csinode): each driver named once with a valid CSI
 * driver name and a node ID, and a non-negative allocatable count.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { duplicate, indexPath, required, type FieldError } from '../../../validation/field-error.js';
import { validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { arrayAt, asObject, objectAt, stringAt } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateCSIDriverName } from '../shared/validation.js';

/** ValidateCSINode without metadata. Never mutates. */
export function validateCSINode(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arrayAt(asObject(obj.spec), 'drivers').forEach((raw, i) => {
    const d = asObject(raw);
    const path = indexPath('spec.drivers', i);
    const name = stringAt(d, 'name');
    errs.push(...validateCSIDriverName(name, `${path}.name`));
    if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
    names.add(name);
    if (!stringAt(d, 'nodeID')) errs.push(required(`${path}.nodeID`, ''));
    errs.push(...validateNonnegativeField(objectAt(d, 'allocatable')?.count, `${path}.allocatable.count`));
  });
  return errs;
}

/** The CSINode strategy. */
export const csiNodeStrategy = defineStrategy({ namespaced: false, validate: validateCSINode });
