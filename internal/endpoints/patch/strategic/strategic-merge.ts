/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) as
 * k8s.io/apimachinery/pkg/util/strategicpatch v0.33 applies and creates it, over decoded JSON.
 */
import { stringify } from 'yaml';

import { diffMaps } from './diff.js';
import { mergingMapsHaveConflicts } from './conflicts.js';
import { errBadJSONDoc, StrategicPatchError } from './errors.js';
import { isMap } from './go-values.js';
import { mergeMap } from './merge.js';
import type { JsonMap, PatchSchema } from './types.js';

/** A private copy of a document: a JSON object, or null/undefined for an empty one. */
function ownDocument(doc: unknown): JsonMap {
  if (doc === null || doc === undefined) return {};
  if (!isMap(doc)) throw errBadJSONDoc();
  return structuredClone(doc);
}

/**
 * StrategicMergePatch: applies patch to original as the API server does (the handler passes the
 * current object's JSON in the request version and a patch decoded into an object) and returns the
 * patched document. Never mutates its inputs; the result shares nothing with them. Throws
 * StrategicPatchError with kube's message; its kind says how to answer.
 */
export function strategicMergePatch(original: unknown, patch: unknown, schema: PatchSchema): unknown {
  return mergeMap(ownDocument(original), ownDocument(patch), schema, { mergeParallelList: true, ignoreUnmatchedNulls: true });
}

/**
 * CreateTwoWayMergePatch: the patch that turns original into modified (what `kubectl patch`-style
 * clients compute). Never mutates its inputs.
 */
export function createTwoWayMergePatch(original: unknown, modified: unknown, schema: PatchSchema): unknown {
  return diffMaps(ownDocument(original), ownDocument(modified), schema, { setElementOrder: true });
}

/**
 * CreateThreeWayMergePatch (kubectl apply's client-side patch): changes from current to modified
 * plus deletions from original to modified. Unless overwrite is set, a patch that changes a key
 * differently than original-to-current did throws a StrategicPatchError of kind Conflict.
 * Never mutates its inputs.
 */
export function createThreeWayMergePatch(original: unknown, modified: unknown, current: unknown, schema: PatchSchema, overwrite: boolean): unknown {
  const originalMap = ownDocument(original);
  const modifiedMap = ownDocument(modified);
  const currentMap = ownDocument(current);

  // Additions and changes come from current to modified, deletions from original to modified;
  // merging the second into the first gives a patch that keeps what the server changed meanwhile.
  const delta = diffMaps(currentMap, modifiedMap, schema, { ignoreDeletions: true, setElementOrder: true });
  const deletions = diffMaps(originalMap, modifiedMap, schema, { setElementOrder: true, ignoreChangesAndAdditions: true });
  const patch = mergeMap(deletions, delta, schema, { mergeParallelList: false, ignoreUnmatchedNulls: false });

  if (!overwrite) {
    const changed = diffMaps(originalMap, currentMap, schema, {});
    if (mergingMapsHaveConflicts(patch, changed, schema)) {
      throw new StrategicPatchError(
        'Conflict',
        `patch:\n${toYaml(patch)}\nconflicts with changes made from original to current:\n${toYaml(changed)}\n`,
      );
    }
  }
  return patch;
}

/** The YAML kube's conflict message shows (mergepatch.ToYAMLOrError). */
function toYaml(doc: JsonMap): string {
  try {
    return stringify(doc, { sortMapEntries: true });
  } catch (err) {
    return String(err);
  }
}
