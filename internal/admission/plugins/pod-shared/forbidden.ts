/**
 * kube's admission.NewForbidden for the pod plugins: `<resource> "<name>" is forbidden: <why>`
 * (403), named by the request's name, else the object's name or generateName, else "Unknown", and
 * utilerrors' aggregate text for several reasons.
 */
import { newForbidden } from '../../../apierrors/factories.js';
import type { StatusError } from '../../../apierrors/status-error.js';
import type { AdmissionAttributes } from '../../interface.js';

/** The name admission errors call the object: kube's extractResourceName. */
export function admissionObjectName(attrs: AdmissionAttributes): string {
  if (attrs.name) return attrs.name;
  const meta = attrs.object?.metadata;
  return meta?.name || meta?.generateName || 'Unknown';
}

/** A 403 Forbidden for the request's resource, as admission.NewForbidden builds it. */
export function admissionForbidden(attrs: AdmissionAttributes, why: string): StatusError {
  return newForbidden({ group: attrs.group, resource: attrs.resource }, admissionObjectName(attrs), why);
}

/** utilerrors.NewAggregate's text: one message alone, several as "[a, b]". */
export function aggregateMessage(messages: readonly string[]): string {
  return messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`;
}
