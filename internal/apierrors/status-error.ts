/**
 * StatusError: the typed error a handler writes as a metav1.Status. Everything a client can do wrong
 * becomes one of these with kube's reason, code and details; anything else is an internal error.
 */
import type { Status, StatusCause, StatusDetails } from '../../api/meta/types.js';

/** metav1.StatusReason values used by kube-apiserver. */
export type StatusReason =
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StoreReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable'
  | '';

/** An error that renders as a metav1.Status with an HTTP code. Immutable once thrown. */
export class StatusError extends Error {
  readonly status: Status;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails, continueToken?: string) {
    super(message);
    this.name = 'StatusError';
    this.status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: continueToken ? { continue: continueToken } : {},
      status: 'Failure',
      message,
      ...(reason ? { reason } : {}),
      ...(details ? { details } : {}),
      code,
    };
  }

  /** The HTTP status code. */
  get code(): number {
    return this.status.code ?? 500;
  }

  /** The status reason. */
  get reason(): string {
    return this.status.reason ?? '';
  }
}

/** True when err is a StatusError with the given reason. */
export function hasReason(err: unknown, reason: StatusReason): boolean {
  return err instanceof StatusError && err.reason === reason;
}

/** A successful metav1.Status, as kube answers a delete that removed the object. */
export function successStatus(details?: StatusDetails): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', ...(details ? { details } : {}) };
}

/** Adds causes to a details object, omitting empty lists. */
export function withCauses(details: StatusDetails, causes: StatusCause[] | undefined): StatusDetails {
  return causes && causes.length > 0 ? { ...details, causes } : details;
}
