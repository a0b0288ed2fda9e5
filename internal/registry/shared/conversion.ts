/**
 * Building blocks of version conversions: versions whose schema is the stored one's (a deep copy
 * suffices), and conversions that rewrite only some fields. Both directions return new objects
 * and never mutate their input; apiVersion and kind are the caller's to set.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { VersionConversion } from '../registration.js';

/** A copy of obj without apiVersion and kind. */
export function copyWithoutTypeMeta(obj: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return structuredClone(rest) as KubeObject;
}

/** The conversion between two versions of the same schema (kube's generated field-for-field copy). */
export const identityConversion: VersionConversion = {
  toExternal: copyWithoutTypeMeta,
  toInternal: copyWithoutTypeMeta,
};

/**
 * A conversion that copies the object and lets each direction rewrite the copy in place; after
 * toInternal, `thenInternal` (the stored version's read-time defaulting) may run on the result.
 */
export function rewritingConversion(
  toExternal: (copy: KubeObject) => void,
  toInternal: (copy: KubeObject) => void,
  thenInternal?: (stored: KubeObject) => void,
): VersionConversion {
  return {
    toExternal(stored) {
      const copy = copyWithoutTypeMeta(stored);
      toExternal(copy);
      return copy;
    },
    toInternal(external) {
      const copy = copyWithoutTypeMeta(external);
      toInternal(copy);
      thenInternal?.(copy);
      return copy;
    },
  };
}
