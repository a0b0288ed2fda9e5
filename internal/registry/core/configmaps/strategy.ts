/**
 * ConfigMap rules (kube's pkg/registry/core/configmap): keys are config keys, a key may not sit in
 * both data and binaryData, the payload is at most 1 MiB, and `immutable: true` freezes the data.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, keyPath, tooLong, type FieldError } from '../../../validation/field-error.js';
import type { Strategy } from '../../generic/strategy.js';
import { maxSecretSize, sortedEntries, validateBase64Values, validateConfigKeys, validateImmutableData, validateStringValues } from '../shared/data-maps.js';
import { isConfigMapKey } from '../shared/config-key.js';
import { asObject } from '../shared/json-value.js';

/** ValidateConfigMap without metadata: keys, duplicates across the two maps, values, total size. */
export function validateConfigMap(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const binary = asObject(obj.binaryData) ?? {};
  for (const [key] of sortedEntries(obj.data)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalid(keyPath('data', key), key, msg));
    if (Object.hasOwn(binary, key)) errs.push(invalid(keyPath('data', key), key, 'duplicate of key present in binaryData'));
  }
  const text = validateStringValues(obj.data, 'data');
  errs.push(...text.errs);
  errs.push(...validateConfigKeys(obj.binaryData, 'binaryData'));
  const bin = validateBase64Values(obj.binaryData, 'binaryData', 'show');
  errs.push(...bin.errs);
  // kube reports the size of the whole object at the empty path.
  if (text.bytes + bin.bytes > maxSecretSize) errs.push(tooLong('', maxSecretSize));
  return errs;
}

/** The ConfigMap strategy. */
export const configMapStrategy = {
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: false,
  nameValidation: 'subdomain',
  // core/v1 registers no field label conversion for ConfigMap, so the generic meta one answers.
  selectableFields: { extra: [], style: 'meta' },
  prepareForCreate(_ctx, _obj) {},
  validate(_ctx, obj) {
    return validateConfigMap(obj);
  },
  prepareForUpdate(_ctx, _obj, _old) {},
  validateUpdate(_ctx, obj, old) {
    return [...validateImmutableData(obj, old, ['data', 'binaryData']), ...validateConfigMap(obj)];
  },
} satisfies Strategy;
