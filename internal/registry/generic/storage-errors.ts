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
  newStorageUnavailable,
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
      // kube interprets an unreachable etcd as 500 ServerTimeout (or its timeout filter answers
      // 504 while its etcd client waits); Capstan answers 503 with the same message and
      // Retry-After: 2, so that monitoring and clients see an outage, not a server bug.
      return newStorageUnavailable(gr, operation, 2);
    case 'Corrupt':
    case 'Internal':
      return newInternalError(err.message);
    case 'Initializing':
      return newTooManyRequests(err.message, 1);
  }
}
