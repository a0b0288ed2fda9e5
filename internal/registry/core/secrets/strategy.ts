/**
 * Secret rules (kube's pkg/registry/core/secret): stringData is folded into data (base64) and
 * dropped, type defaults to Opaque and never changes, keys are config keys, values are base64, the
 * payload is at most 1 MiB, the well-known types carry their required keys, and `immutable: true`
 * freezes data.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, keyPath, required, tooLong, type FieldError } from '../../../validation/field-error.js';
import type { Strategy } from '../../generic/strategy.js';
import { maxSecretSize, validateBase64Values, validateConfigKeys, validateImmutableData } from '../shared/data-maps.js';
import { validateImmutableField } from '../shared/field-immutable.js';
import { asObject, stringAt } from '../shared/json-value.js';

/**
 * Folds stringData into data as base64 (stringData wins, as in kube's v1 conversion), drops
 * stringData and defaults an empty type to Opaque. Mutates obj.
 */
export function normalizeSecret(obj: KubeObject): void {
  const stringData = asObject(obj.stringData);
  if (stringData && Object.keys(stringData).length > 0) {
    const data = { ...asObject(obj.data) };
    for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(typeof v === 'string' ? v : String(v ?? ''), 'utf8').toString('base64');
    obj.data = data;
  }
  delete obj.stringData;
  if (!obj.type) obj.type = 'Opaque';
}

function decoded(obj: KubeObject, key: string): Buffer | undefined {
  const v = asObject(obj.data)?.[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64') : undefined;
}

function has(obj: KubeObject, key: string): boolean {
  return Object.hasOwn(asObject(obj.data) ?? {}, key);
}

/** The keys each well-known secret type must carry (ValidateSecret's switch). */
function validateType(obj: KubeObject): FieldError[] {
  const data = 'data';
  switch (obj.type) {
    case 'kubernetes.io/service-account-token':
      return stringAt(asObject(obj.metadata.annotations), 'kubernetes.io/service-account.name')
        ? []
        : [required(keyPath('metadata.annotations', 'kubernetes.io/service-account.name'), '')];
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const key = obj.type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      if (!has(obj, key)) return [required(keyPath(data, key), '')];
      try {
        const parsed: unknown = JSON.parse(decoded(obj, key)?.toString('utf8') ?? '');
        if (asObject(parsed) === undefined) throw new Error('json: cannot unmarshal into Go value of type map[string]interface {}');
      } catch (err) {
        return [invalid(keyPath(data, key), '<secret contents redacted>', (err as Error).message)];
      }
      return [];
    }
    case 'kubernetes.io/basic-auth':
      return has(obj, 'username') || has(obj, 'password') ? [] : [required(keyPath(data, 'username'), ''), required(keyPath(data, 'password'), '')];
    case 'kubernetes.io/ssh-auth':
      return (decoded(obj, 'ssh-privatekey')?.length ?? 0) > 0 ? [] : [required(keyPath(data, 'ssh-privatekey'), '')];
    case 'kubernetes.io/tls': {
      const errs: FieldError[] = [];
      if (!has(obj, 'tls.crt')) errs.push(required(keyPath(data, 'tls.crt'), ''));
      if (!has(obj, 'tls.key')) errs.push(required(keyPath(data, 'tls.key'), ''));
      return errs;
    }
    default:
      return [];
  }
}

/** ValidateSecret without metadata. */
export function validateSecret(obj: KubeObject): FieldError[] {
  const errs = validateConfigKeys(obj.data, 'data');
  const values = validateBase64Values(obj.data, 'data', 'redact');
  errs.push(...values.errs);
  if (values.bytes > maxSecretSize) errs.push(tooLong('data', maxSecretSize));
  // A malformed value already failed; the type rules need the decoded bytes.
  if (values.errs.length === 0) errs.push(...validateType(obj));
  return errs;
}

/** The Secret field selector: type. */
function secretFields(obj: KubeObject): Record<string, string> {
  return { type: typeof obj.type === 'string' ? obj.type : '' };
}

/** The Secret strategy. */
export const secretStrategy = {
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: false,
  nameValidation: 'subdomain',
  selectableFields: { extra: ['type'], style: 'core', values: secretFields },
  prepareForCreate(_ctx, obj) {
    normalizeSecret(obj);
  },
  validate(_ctx, obj) {
    return validateSecret(obj);
  },
  prepareForUpdate(_ctx, obj, _old) {
    normalizeSecret(obj);
  },
  validateUpdate(_ctx, obj, old) {
    return [...validateImmutableField(obj.type, old.type, 'type'), ...validateImmutableData(obj, old, ['data']), ...validateSecret(obj)];
  },
} satisfies Strategy;

