/**
 * How the patch handler answers a strategic merge patch error, as kube-apiserver's
 * interpretStrategicMergePatchError does (with Capstan's 400 where kube falls through to a 500).
 */
import { newBadRequest } from '../../../apierrors/factories.js';
import { StatusError } from '../../../apierrors/status-error.js';
import type { StrategicPatchError } from './strategic-patch-error.js';

/**
 * The StatusError for a StrategicPatchError raised while applying a patch: Invalid becomes kube's
 * generic 422 ("the server rejected our request due to an error in our request"; kube builds it
 * with isUnexpectedResponse false, so no causes), everything else a 400 BadRequest carrying the
 * error text.
 * Conflict only comes from three-way patch creation, which the server never does; it maps to 409.
 */
export function statusErrorForPatch(err: StrategicPatchError): StatusError {
  switch (err.kind) {
    case 'Invalid':
      return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
    case 'Conflict':
      return new StatusError(409, 'Conflict', err.message);
    default:
      return newBadRequest(err.message);
  }
}
