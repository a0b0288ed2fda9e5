/**
 * The directives a strategic merge patch may carry and the patch strategies a field may declare.
 */
import { errBadPatchFormatForPrimitiveList, errBadPatchFormatForSetElementOrderList, errPatch } from './errors.js';
import { formatV, isMap } from './go-values.js';
import { setOwnKey } from '../../../collections/own-key.js';

/** `$patch: replace|delete|merge` on a map or a list element. */
export const directiveMarker = '$patch';
/** `$patch: delete`: remove the map, or the list element with that merge key. */
export const deleteDirective = 'delete';
/** `$patch: replace` (also a patch strategy): take the patch value instead of merging. */
export const replaceDirective = 'replace';
/** The merge strategy of lists, and the `$patch: merge` a list may not carry yet. */
export const mergeDirective = 'merge';
/** The retainKeys strategy: the patch lists the keys that survive. */
export const retainKeysStrategy = 'retainKeys';
/** `$retainKeys: [...]`: keys of the original map to keep. */
export const retainKeysDirective = '$retainKeys';
/** `$deleteFromPrimitiveList/<list>: [...]`: values to remove from a list of scalars. */
export const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
/** `$setElementOrder/<list>: [...]`: the order the merged list must have. */
export const setElementOrderPrefix = '$setElementOrder';

/** A field's strategies split into the retainKeys flag and the one other strategy ('' for none). */
export interface FieldStrategy {
  readonly retainKeys: boolean;
  readonly strategy: string;
}

/** kube's extractRetainKeysPatchStrategy: at most two strategies, one of them retainKeys. */
export function fieldStrategy(strategies: readonly string[]): FieldStrategy {
  if (strategies.length === 0) return { retainKeys: false, strategy: '' };
  if (strategies.length === 1) {
    const only = strategies[0] as string;
    return only === retainKeysStrategy ? { retainKeys: true, strategy: '' } : { retainKeys: false, strategy: only };
  }
  if (strategies.length === 2) {
    if (strategies[0] === retainKeysStrategy) return { retainKeys: true, strategy: strategies[1] as string };
    if (strategies[1] === retainKeysStrategy) return { retainKeys: true, strategy: strategies[0] as string };
  }
  throw errPatch(`unexpected patch strategy: ${formatV([...strategies])}`);
}

/** The list name after `<prefix>/`; a key that is not `<prefix>/...` is a malformed directive. */
export function directiveTarget(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListPrefix) throw errBadPatchFormatForPrimitiveList();
    if (prefix === setElementOrderPrefix) throw errBadPatchFormatForSetElementOrderList();
    throw errPatch(`fail to find unknown prefix "${prefix}" in ${key}\n`);
  }
  return key.slice(slash + 1);
}

/** A `$patch: delete` list element for the given merge key value. */
export function deleteDirectiveFor(mergeKey: string, value: unknown): Record<string, unknown> {
  return { [mergeKey]: value, [directiveMarker]: deleteDirective };
}

/**
 * Strips `$patch` directives from a value that has nothing to merge with: a map carrying one goes
 * away (from its list, or from its parent), nested values are cleaned the same way. Returns
 * undefined when v itself must go. Mutates maps inside v.
 */
export function removeDirectives(v: unknown): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const e of v) {
      const kept = removeDirectives(e);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  if (isMap(v)) {
    if (Object.hasOwn(v, directiveMarker)) return undefined;
    for (const [k, e] of Object.entries(v)) {
      const kept = removeDirectives(e);
      if (kept === undefined) delete v[k];
      else setOwnKey(v, k, kept);
    }
  }
  return v;
}
