/**
 * How a failed conversion reaches the client. kube reads custom resources through its storage
 * decoder, which wraps a conversion failure as a storage internal error: 500 InternalError,
 * "Internal error occurred: <why>". Writes encode to the storage version and return the bare error,
 * which kube's handlers render as 500 with no reason and the message alone.
 */
import { newInternalError } from '../../apierrors/factories.js';
import { StatusError } from '../../apierrors/status-error.js';

/** A conversion that failed (the read answer); detail is kube's error text. */
export class ConversionError extends StatusError {
  constructor(readonly detail: string) {
    const read = newInternalError(detail);
    super(read.code, 'InternalError', read.message, read.status.details);
    this.name = 'ConversionError';
  }

  /** The answer kube gives when the conversion was part of a write (create, update, patch). */
  toWriteError(): StatusError {
    return new StatusError(500, '', this.detail);
  }
}
