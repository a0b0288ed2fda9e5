/**
 * kube's admission.NewForbidden: a plugin's refusal as 403 `<resource> "<name>" is forbidden: <why>`,
 * naming the object by the request's name, else the object's name or generateName (names are not
 * generated yet during admission), else "Unknown".
 */
import { newForbidden } from '../apierrors/factories.js';
import type { StatusError } from '../apierrors/status-error.js';
import type { AdmissionAttributes } from './interface.js';

/** The 403 a plugin answers with; why is the plugin's error text. */
export function admissionForbidden(attrs: AdmissionAttributes, why: string): StatusError {
  let name = attrs.name;
  if (!name) {
    const meta = attrs.object?.metadata;
    name = meta?.name || meta?.generateName || 'Unknown';
  }
  return newForbidden({ group: attrs.group, resource: attrs.resource }, name, why);
}
