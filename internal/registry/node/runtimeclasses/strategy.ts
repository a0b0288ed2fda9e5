/**
 * RuntimeClass rules (kube's pkg/registry/node/runtimeclass): the handler is a DNS-1123 label
 * that never changes; overhead quantities are valid.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label } from '../../../validation/label-values.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { asObject } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateResourceList } from '../../shared/quantity-validation.js';

/** ValidateRuntimeClass without metadata. Never mutates. */
export function validateRuntimeClass(obj: KubeObject): FieldError[] {
  const handler = typeof obj.handler === 'string' ? obj.handler : '';
  const errs = isDNS1123Label(handler).map((m) => invalid('handler', handler, m));
  errs.push(...validateResourceList(asObject(obj.overhead)?.podFixed, 'overhead.podFixed'));
  return errs;
}

/** The RuntimeClass strategy. */
export const runtimeClassStrategy = defineStrategy({
  namespaced: false,
  validate: validateRuntimeClass,
  validateUpdate: (obj, old) => [...validateRuntimeClass(obj), ...validateImmutableField(obj.handler, old.handler, 'handler')],
});
