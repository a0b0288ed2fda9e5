/**
 * Turns StorageErrors into the StatusErrors clients see (kube's storeerr.Interpret*Error), naming
 * the resource and object; other errors pass through unchanged.
 */
import {
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newInternalError,
  newNotFound,
  newResourceExpired,
  newServerTimeout,
  newTooManyRequests,
  newTooLargeResourceVersion,
  optimisticLockErrorMsg,
  type GroupResource,
} from '../../apierrors/factories.js';
import { isStorageError } from '../../storage/errors.js';

/** The StatusError for a storage failure during operation on name ("" for collections). */
export function interpretStorageError(err: unknown, gr: GroupResource, name: string, operation: string): unknown {
  if (!isStorageError(err)) return err;
  switch (err.code) {
    case 'NotFound':
      return newNotFound(gr, name);
    case 'KeyExists':
      return newAlreadyExists(gr, name);
    case 'Conflict':
      return newConflict(gr, name, optimisticLockErrorMsg);
    case 'InvalidObj':
      return newConflict(gr, name, err.message);
    case 'Expired':
      return newResourceExpired(err.message, err.inconsistentContinue);
    case 'TooLargeResourceVersion':
      return newTooLargeResourceVersion(err.revisions?.requested ?? '', err.revisions?.current ?? '');
    case 'InvalidArgument':
      return newBadRequest(err.message);
    case 'Unreachable':
      return newServerTimeout(gr, operation, 2);
    case 'Corrupt':
    case 'Internal':
      return newInternalError(err.message);
    case 'Initializing':
      return newTooManyRequests(err.message, 1);
  }
}
