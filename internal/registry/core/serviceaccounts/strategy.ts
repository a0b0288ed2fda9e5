/**
 * ServiceAccount rules (kube's pkg/registry/core/serviceaccount): nothing type-specific to
 * validate; secret references are trimmed to their names on every write, as kube does.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Strategy } from '../../generic/strategy.js';
import { asObject } from '../shared/json-value.js';

/** kube's cleanSecretReferences: each entry of secrets keeps only its name. Mutates obj. */
export function cleanSecretReferences(obj: KubeObject): void {
  if (!Array.isArray(obj.secrets)) return;
  obj.secrets = obj.secrets.map((ref: unknown) => {
    const name = asObject(ref)?.name;
    return name === undefined ? {} : { name };
  });
}

/** The ServiceAccount strategy. */
export const serviceAccountStrategy = {
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: false,
  nameValidation: 'subdomain',
  returnDeletedObject: true,
  selectableFields: { extra: [], style: 'meta' },
  prepareForCreate(_ctx, obj) {
    cleanSecretReferences(obj);
  },
  validate(_ctx, _obj) {
    return [];
  },
  prepareForUpdate(_ctx, obj, _old) {
    cleanSecretReferences(obj);
  },
  validateUpdate(_ctx, _obj, _old) {
    return [];
  },
} satisfies Strategy;
