/**
 * kube's admission.NewForbidden: a 403 about the request's object, named by the request, else by
 * the object's name or generateName (names are not generated before admission), else "Unknown".
 */
import { newForbidden } from '../apierrors/factories.js';
import type { StatusError } from '../apierrors/status-error.js';
import type { AdmissionAttributes } from './interface.js';

/** The 403 an admission plugin refuses attrs with: `<resource> "<name>" is forbidden: <why>`. */
export function admissionForbidden(attrs: AdmissionAttributes, why: string): StatusError {
  const name = attrs.name || attrs.object?.metadata?.name || attrs.object?.metadata?.generateName || 'Unknown';
  return newForbidden({ group: attrs.group, resource: attrs.resource }, name, why);
}
