/**
 * The patch metadata of the built-in kinds: kube-apiserver applies strategic merge patches with the
 * Go struct of the request's version (PatchMetaFromStruct), whose tags api/gen/patch-meta.ts carries.
 */
import { patchMetaDefinitions, patchMetaKinds } from '../../../../api/gen/patch-meta.js';
import { structPatchSchemaFactory } from './struct-schema.js';
import type { GroupVersionKind, PatchSchema } from './types.js';

const schemaOf = structPatchSchemaFactory(patchMetaDefinitions);
const cache = new Map<string, PatchSchema | undefined>();

/**
 * The patch schema of a built-in kind in one version (`apps/v1 Deployment`), or undefined for kinds
 * without one (custom resources, aggregated APIs), which kube answers 415 for a strategic merge
 * patch. Cheap after the first call per kind; the schema may be shared.
 */
export function patchSchemaFor(gvk: GroupVersionKind): PatchSchema | undefined {
  const key = `${gvk.group === '' ? '' : `${gvk.group}/`}${gvk.version}/${gvk.kind}`;
  if (!cache.has(key)) {
    const def = patchMetaKinds[key];
    cache.set(key, def === undefined ? undefined : schemaOf(def));
  }
  return cache.get(key);
}
