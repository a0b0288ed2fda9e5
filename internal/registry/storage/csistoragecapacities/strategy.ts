/**
 * CSIStorageCapacity rules (kube's pkg/registry/storage/csistoragecapacity): a valid storage
 * class name, a valid node topology selector, and non-negative capacities.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { validateLabelSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { invalid, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Subdomain } from '../../../validation/label-values.js';
import { asObject } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateNonnegativeQuantity } from '../../shared/quantity-validation.js';

/** ValidateCSIStorageCapacity without metadata. Never mutates. */
export function validateCSIStorageCapacity(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const sc = typeof obj.storageClassName === 'string' ? obj.storageClassName : '';
  if (!sc) errs.push(required('storageClassName', ''));
  else errs.push(...isDNS1123Subdomain(sc).map((m) => invalid('storageClassName', sc, m)));
  const topology = asObject(obj.nodeTopology);
  if (topology) errs.push(...validateLabelSelector(topology as LabelSelectorObject, {}, 'nodeTopology'));
  for (const f of ['capacity', 'maximumVolumeSize']) {
    if (obj[f] !== undefined && obj[f] !== null) errs.push(...validateNonnegativeQuantity(obj[f], f));
  }
  return errs;
}

/** The CSIStorageCapacity strategy. */
export const csiStorageCapacityStrategy = defineStrategy({ namespaced: true, validate: validateCSIStorageCapacity });
