/**
 * CustomResourceDefinition rules (kube's apiextensions-apiserver registry): generation tracking;
 * updates must name the resourceVersion they read;
 * status written only through customresourcedefinitions/status, starting with the storage
 * version recorded in storedVersions (and each new storage version added on update). Objects
 * reach the strategy in the stored v1beta1 form, which is kube's internal form: validation runs
 * on it, so field paths are kube's (spec.validation.openAPIV3Schema... for a shared schema).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { arrayAt, asObject, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionStatusUpdate,
  validateCustomResourceDefinitionUpdate,
} from '../../../apiextensions/validation/index.js';

/** The name of the version marked storage, if any. */
function storageVersion(obj: KubeObject): string | undefined {
  const spec = asObject(obj.spec);
  const v = arrayAt(spec, 'versions').map((x) => asObject(x) ?? {}).find((x) => x.storage === true);
  if (v) return stringAt(v, 'name');
  // A v1beta1 object without versions stores its single spec.version.
  return arrayAt(spec, 'versions').length === 0 ? stringAt(spec, 'version') || undefined : undefined;
}

/** Appends the storage version to status.storedVersions when it is not there. Mutates obj. */
function recordStorageVersion(obj: KubeObject): void {
  const version = storageVersion(obj);
  if (!version) return;
  const status = (asObject(obj.status) ?? (obj.status = {})) as JsonObject;
  const stored = arrayAt(status, 'storedVersions').map(String);
  if (!stored.includes(version)) status.storedVersions = [...stored, version];
}

/** The CustomResourceDefinition strategy. */
export const crdStrategy = defineStrategy({
  namespaced: false,
  allowUnconditionalUpdate: false,
  tracksGeneration: true,
  hasStatus: true,
  // kube's CRD validation runs apimachinery's ObjectMeta checks (customresourcecleanup.apiextensions.k8s.io is no domain path).
  qualifiedFinalizerNames: true,
  // acceptedNames is a struct whose plural and kind are always written.
  initialStatus: () => ({ acceptedNames: { plural: '', kind: '' } }),
  prepareForCreate: (_ctx, obj) => recordStorageVersion(obj),
  prepareForUpdate: (_ctx, obj) => recordStorageVersion(obj),
  validate: (obj) => validateCustomResourceDefinition(obj),
  validateUpdate: (obj, old) => validateCustomResourceDefinitionUpdate(obj, old),
});

/**
 * customresourcedefinitions/status: only status changes, and of metadata only finalizers (the CRD
 * finalizer removes its own through status, as kube's statusStrategy allows); stored versions stay
 * declared.
 */
export const crdStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
    for (const f of ['labels', 'annotations', 'ownerReferences'] as const) {
      const v = old.metadata[f];
      if (v === undefined) delete obj.metadata[f];
      else (obj.metadata as Record<string, unknown>)[f] = structuredClone(v);
    }
  },
  validateUpdate(_ctx, obj) {
    return validateCustomResourceDefinitionStatusUpdate(obj);
  },
};
