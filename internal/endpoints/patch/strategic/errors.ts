/**
 * The errors strategic merge patch raises, with the texts of k8s.io/apimachinery/pkg/util/mergepatch
 * and strategicpatch, each tagged with how the API server answers it.
 */
import { formatS, formatV, goTypeName } from './go-values.js';
import { StrategicPatchError } from './strategic-patch-error.js';

export { StrategicPatchError, type StrategicPatchErrorKind } from './strategic-patch-error.js';

/** mergepatch.ErrBadJSONDoc. */
export const badJSONDocMessage = 'invalid JSON document';
/** mergepatch.ErrNoListOfLists. */
export const noListOfListsMessage = 'lists of lists are not supported';
/** mergepatch.ErrBadPatchFormatForPrimitiveList. */
export const badPatchFormatForPrimitiveListMessage = 'invalid patch format of primitive list';
/** mergepatch.ErrBadPatchFormatForRetainKeys. */
export const badPatchFormatForRetainKeysMessage = 'invalid patch format of retainKeys';
/** mergepatch.ErrBadPatchFormatForSetElementOrderList. */
export const badPatchFormatForSetElementOrderListMessage = 'invalid patch format of setElementOrder list';
/** mergepatch.ErrPatchContentNotMatchRetainKeys (kube defines and maps it; its patch code never raises it). */
export const patchContentNotMatchRetainKeysMessage = "patch content doesn't match retainKeys list";
/** mergepatch.ErrUnsupportedStrategicMergePatchFormat. */
export const unsupportedStrategicMergePatchFormatMessage = 'strategic merge patch format is not supported';

/** The document is not a JSON object. */
export function errBadJSONDoc(): StrategicPatchError {
  return new StrategicPatchError('BadRequest', badJSONDocMessage);
}

/** A list whose elements are lists. */
export function errNoListOfLists(): StrategicPatchError {
  return new StrategicPatchError('Invalid', noListOfListsMessage);
}

/** A `$deleteFromPrimitiveList` key or value of the wrong shape. */
export function errBadPatchFormatForPrimitiveList(): StrategicPatchError {
  return new StrategicPatchError('BadRequest', badPatchFormatForPrimitiveListMessage);
}

/** A `$retainKeys` that is not a list, or a patch field missing from it. */
export function errBadPatchFormatForRetainKeys(): StrategicPatchError {
  return new StrategicPatchError('BadRequest', badPatchFormatForRetainKeysMessage);
}

/** A `$setElementOrder` key or value of the wrong shape. */
export function errBadPatchFormatForSetElementOrderList(): StrategicPatchError {
  return new StrategicPatchError('BadRequest', badPatchFormatForSetElementOrderListMessage);
}

/** Strategic merge patch asked of a type without patch metadata (custom resources). */
export function errUnsupportedStrategicMergePatchFormat(): StrategicPatchError {
  return new StrategicPatchError('BadRequest', unsupportedStrategicMergePatchFormatMessage);
}

/** mergepatch.ErrNoMergeKey: an element without the list's merge key. */
export function errNoMergeKey(m: unknown, mergeKey: string): StrategicPatchError {
  return new StrategicPatchError('BadRequest', `map: ${formatV(m)} does not contain declared merge key: ${mergeKey}`);
}

/** mergepatch.ErrBadArgType: a value of another JSON type than the algorithm needs there. */
export function errBadArgType(expected: 'map' | 'slice', actual: unknown): StrategicPatchError {
  const want = expected === 'map' ? 'map[string]interface {}' : '[]interface {}';
  return new StrategicPatchError('BadRequest', `expected a ${want}, but received a ${goTypeName(actual)}`);
}

/** mergepatch.ErrBadPatchType: a `$patch` value the position does not allow. */
export function errBadPatchType(directive: unknown, m: unknown): StrategicPatchError {
  return new StrategicPatchError('BadRequest', `unknown patch type: ${formatS(directive)} in map: ${formatV(m)}`);
}

/** Any other failure, with kube's text. */
export function errPatch(message: string): StrategicPatchError {
  return new StrategicPatchError('BadRequest', message);
}
