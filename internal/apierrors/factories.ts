/**
 * Factories for the StatusErrors kube-apiserver answers with. Messages follow
 * k8s.io/apimachinery/pkg/api/errors so clients that match on them keep working.
 */
import { qualifiedResource } from '../../api/meta/types.js';
import { StatusError } from './status-error.js';

/** A group and resource (plural), e.g. {group:'apps', resource:'deployments'}. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** One field's failure inside an Invalid error: the cause reason, field path and the texts. */
export interface InvalidCause {
  /** The StatusCause reason, e.g. FieldValueInvalid. */
  readonly reason: string;
  /** The field path, e.g. metadata.name. */
  readonly field: string;
  /** The cause message: the error without its field path ("Invalid value: ..."). */
  readonly message: string;
  /** The whole error text ("metadata.name: Invalid value: ..."). */
  readonly text: string;
}

function details(gr: GroupResource, name: string): { name?: string; group?: string; kind?: string } {
  return { ...(name ? { name } : {}), ...(gr.group ? { group: gr.group } : {}), ...(gr.resource ? { kind: gr.resource } : {}) };
}

/** 404 NotFound: `configmaps "x" not found`. */
export function newNotFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualifiedResource(gr.group, gr.resource)} "${name}" not found`, details(gr, name));
}

/** 409 AlreadyExists: `configmaps "x" already exists`. */
export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualifiedResource(gr.group, gr.resource)} "${name}" already exists`, details(gr, name));
}

/** The text kube gives when an update carries a stale resourceVersion. */
export const optimisticLockErrorMsg = 'the object has been modified; please apply your changes to the latest version and try again';

/** 409 Conflict: `Operation cannot be fulfilled on configmaps "x": <why>`. */
export function newConflict(gr: GroupResource, name: string, why: string): StatusError {
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(gr.group, gr.resource)} "${name}": ${why}`,
    details(gr, name),
  );
}

/** 422 Invalid: `ConfigMap "x" is invalid: [a: ..., b: ...]` with one cause per field error. */
export function newInvalid(group: string, kind: string, name: string, causes: readonly InvalidCause[]): StatusError {
  const qualifiedKind = group === '' ? kind : `${kind}.${group}`;
  const texts = causes.map((c) => c.text);
  const aggregate = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return new StatusError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${aggregate}`, {
    ...(name ? { name } : {}),
    ...(group ? { group } : {}),
    ...(kind ? { kind } : {}),
    causes: causes.map((c) => ({ reason: c.reason, message: c.message, field: c.field })),
  });
}

/** 400 BadRequest with the given message. */
export function newBadRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

/** 405 MethodNotAllowed: `<action> is not supported on resources of kind "<resource>"`. */
export function newMethodNotSupported(gr: GroupResource, action: string): StatusError {
  return new StatusError(
    405,
    'MethodNotAllowed',
    `${action} is not supported on resources of kind "${qualifiedResource(gr.group, gr.resource)}"`,
    { ...(gr.group ? { group: gr.group } : {}), kind: gr.resource },
  );
}

/** 410 Expired: a resourceVersion or continue token that was compacted away. */
export function newResourceExpired(message: string, continueToken?: string): StatusError {
  return new StatusError(410, 'Expired', message, undefined, continueToken);
}

/** 410 Gone. */
export function newGone(message: string): StatusError {
  return new StatusError(410, 'Gone', message);
}

/** 504 Timeout: `Timeout: <message>` with retryAfterSeconds. */
export function newTimeoutError(message: string, retryAfterSeconds: number, causes?: { reason: string; message: string }[]): StatusError {
  return new StatusError(504, 'Timeout', `Timeout: ${message}`, {
    ...(causes ? { causes } : {}),
    retryAfterSeconds,
  });
}

/** 504 Timeout for a resourceVersion the store has not reached yet. */
export function newTooLargeResourceVersion(requested: string, current: string, retryAfterSeconds = 1): StatusError {
  return newTimeoutError(`Too large resource version: ${requested}, current: ${current}`, retryAfterSeconds, [
    { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
  ]);
}

/** 500 InternalError: `Internal error occurred: <why>`. */
export function newInternalError(why: string): StatusError {
  return new StatusError(500, 'InternalError', `Internal error occurred: ${why}`, { causes: [{ message: why }] });
}

/** 503 ServiceUnavailable. */
export function newServiceUnavailable(message: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', message);
}

/** 403 Forbidden: `<resource> "<name>" is forbidden: <why>`. */
export function newForbidden(gr: GroupResource, name: string, why: string): StatusError {
  const q = qualifiedResource(gr.group, gr.resource);
  const message = gr.resource === '' ? `forbidden: ${why}` : name === '' ? `${q} is forbidden: ${why}` : `${q} "${name}" is forbidden: ${why}`;
  return new StatusError(403, 'Forbidden', message, details(gr, name));
}

/** 429 TooManyRequests. */
export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds });
}

/** 413 RequestEntityTooLarge. */
export function newRequestEntityTooLarge(message: string): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

/** 415 UnsupportedMediaType listing the media types the endpoint accepts. */
export function newUnsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** 406 NotAcceptable listing the media types the endpoint can produce. */
export function newNotAcceptable(accepted: readonly string[]): StatusError {
  return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** 404 for a path that names nothing the server serves (kube answers these with reason NotFound). */
export function newPathNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/**
 * 503 ServiceUnavailable for a storage operation that could not reach etcd: kube's ServerTimeout
 * message and details (retryAfterSeconds, sent as Retry-After) with the code of an outage.
 */
export function newStorageUnavailable(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  const timeout = newServerTimeout(gr, operation, retryAfterSeconds);
  return new StatusError(503, 'ServiceUnavailable', timeout.status.message ?? '', timeout.status.details);
}

/** 500 ServerTimeout: kube's answer when storage cannot be reached; clients retry after retryAfterSeconds. */
export function newServerTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  return new StatusError(
    500,
    'ServerTimeout',
    `The ${operation} operation against ${qualifiedResource(gr.group, gr.resource)} could not be completed at this time, please try again.`,
    { name: operation, ...(gr.group ? { group: gr.group } : {}), kind: gr.resource, retryAfterSeconds },
  );
}
