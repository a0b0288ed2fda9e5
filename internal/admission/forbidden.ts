/**
 * kube's admission.NewForbidden: a plugin's refusal as 403 Forbidden naming the request's resource
 * (not its subresource) and its name, taken from the object when the request names none.
 */
import { newForbidden } from '../apierrors/factories.js';
import { StatusError } from '../apierrors/status-error.js';
import type { AdmissionAttributes } from './interface.js';

/** The 403 a plugin answers with; an error that is already a Forbidden StatusError passes unchanged. */
export function admissionForbidden(attrs: AdmissionAttributes, why: string | Error): StatusError {
  if (why instanceof StatusError && why.reason === 'Forbidden') return why;
  const message = typeof why === 'string' ? why : why.message;
  const name = attrs.name || attrs.object?.metadata?.name || '';
  return newForbidden({ group: attrs.group, resource: attrs.resource }, name, message);
}
