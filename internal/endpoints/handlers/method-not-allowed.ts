/**
 * The 405 kube-apiserver answers when a path exists but not for the request's method.
 */
import { StatusError } from '../../apierrors/status-error.js';

/** 405 MethodNotAllowed with kube's generic message. */
export function methodNotAllowed(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}
