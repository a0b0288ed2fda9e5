/**
 * StorageError: the typed errors of the storage layer. The registry turns each into the
 * StatusError a client sees; nothing above storage matches etcd's own error texts.
 */

/** What went wrong in storage. */
export type StorageErrorCode =
  /** The key does not exist. */
  | 'NotFound'
  /** A create found the key already there. */
  | 'KeyExists'
  /** A compare-and-swap lost to a concurrent write, or a precondition on resourceVersion failed. */
  | 'Conflict'
  /** A precondition (uid, resourceVersion) did not hold. */
  | 'InvalidObj'
  /** The revision asked for was compacted away. */
  | 'Expired'
  /** The revision asked for is newer than the store's current revision. */
  | 'TooLargeResourceVersion'
  /** A resourceVersion, continue token or option the store cannot interpret. */
  | 'InvalidArgument'
  /** The store could not be reached or answered with a failure. */
  | 'Unreachable'
  /** Stored bytes could not be decoded. */
  | 'Corrupt'
  /**
   * The store failed in a way the client cannot fix, e.g. a value it cannot decrypt or encrypt
   * (kube's storage.InternalError): a 500 InternalError with the message as its reason.
   */
  | 'Internal'
  /** The watch cache is (re)initializing and cannot serve this request yet; try again shortly. */
  | 'Initializing';

/** An error from the storage layer. */
export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    /** For Expired on a continue token: a token that continues at the latest revision. */
    readonly inconsistentContinue?: string,
    /** For TooLargeResourceVersion: the revision asked for and the current one. */
    readonly revisions?: { requested: string; current: string },
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

/** True when err is a StorageError with the given code. */
export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}
