/**
 * Helpers for the status rules of resources whose kube strategy differs from the generic
 * "status only, metadata as it was" rule: most of them take everything but status from the stored
 * object and let metadata through.
 */
import type { KubeObject } from '../../../../api/meta/types.js';

/**
 * Replaces every top-level field of obj except metadata and status with old's (a deep copy), so a
 * status write cannot change spec. Mutates obj, never old.
 */
export function takeAllButStatusFrom(obj: KubeObject, old: KubeObject): void {
  for (const key of Object.keys(obj)) if (key !== 'status' && key !== 'metadata' && key !== 'apiVersion' && key !== 'kind') delete obj[key];
  for (const [key, value] of Object.entries(old)) {
    if (key !== 'status' && key !== 'metadata' && key !== 'apiVersion' && key !== 'kind') obj[key] = structuredClone(value);
  }
}

/** Sets obj.status to a copy of old.status (or removes it when old has none); for main-resource updates. */
export function keepStatusOf(obj: KubeObject, old: KubeObject): void {
  if (old.status === undefined) delete obj.status;
  else obj.status = structuredClone(old.status);
}
