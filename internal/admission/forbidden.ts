/**
 * kube's admission.NewForbidden: a 403 about the request's object (its resource, not its
 * subresource), named by the request, else by the object's name or generateName (names are not
 * generated before admission), else "Unknown".
 */
import { newForbidden } from '../apierrors/factories.js';
import { StatusError } from '../apierrors/status-error.js';
import type { AdmissionAttributes } from './interface.js';

/**
 * The 403 an admission plugin refuses attrs with: `<resource> "<name>" is forbidden: <why>`; an
 * error that already is a Forbidden StatusError passes unchanged.
 */
export function admissionForbidden(attrs: AdmissionAttributes, why: string | Error): StatusError {
  if (why instanceof StatusError && why.reason === 'Forbidden') return why;
  const message = typeof why === 'string' ? why : why.message;
  const name = attrs.name || attrs.object?.metadata?.name || attrs.object?.metadata?.generateName || 'Unknown';
  return newForbidden({ group: attrs.group, resource: attrs.resource }, name, message);
}
