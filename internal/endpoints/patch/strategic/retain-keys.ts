/**
 * The `$retainKeys` directive: the keys of the live map that survive a patch (kube's retainKeys
 * strategy, used for union types such as a Deployment's strategy and a Pod's volumes).
 */
import { deleteFromPrimitiveListPrefix, retainKeysDirective, setElementOrderPrefix } from './directives.js';
import { errBadPatchFormatForRetainKeys, errPatch } from './errors.js';
import { formatV, goDeepEqual, scalarKey } from './go-values.js';
import type { JsonMap } from './types.js';

/**
 * Applies and removes patch's `$retainKeys`. When merging two patches (mergeParallelList false) the
 * directive moves to original instead, and both must agree. Otherwise every patch key that sets a
 * value must be listed, and the original's unlisted keys are dropped. Mutates original and patch.
 */
export function applyRetainKeysDirective(original: JsonMap, patch: JsonMap, mergeParallelList: boolean): void {
  if (!Object.hasOwn(patch, retainKeysDirective)) return;
  const retainKeys = patch[retainKeysDirective];
  delete patch[retainKeysDirective];

  if (!mergeParallelList) {
    if (Object.hasOwn(original, retainKeysDirective)) {
      const inOriginal = original[retainKeysDirective];
      if (!goDeepEqual(inOriginal, retainKeys)) {
        throw errPatch(`${formatV(inOriginal)} and ${formatV(retainKeys)} are not deep equal: this may happen when calculating the 3-way diff patch`);
      }
    } else {
      original[retainKeysDirective] = retainKeys;
    }
    return;
  }

  if (!Array.isArray(retainKeys)) throw errBadPatchFormatForRetainKeys();
  const kept = new Set(retainKeys.map(scalarKey));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix)) continue;
    if (!kept.has(scalarKey(k))) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) {
    if (!kept.has(scalarKey(k))) delete original[k];
  }
}
