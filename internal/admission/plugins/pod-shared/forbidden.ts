/**
 * Admission errors for the pod plugins: the name kube's extractResourceName gives the object, and
 * utilerrors' aggregate text for several reasons. The 403 itself is ../../forbidden.ts.
 */
import type { AdmissionAttributes } from '../../interface.js';

export { admissionForbidden } from '../../forbidden.js';

/** The name admission errors call the object: kube's extractResourceName. */
export function admissionObjectName(attrs: AdmissionAttributes): string {
  if (attrs.name) return attrs.name;
  const meta = attrs.object?.metadata;
  return meta?.name || meta?.generateName || 'Unknown';
}

/** utilerrors.NewAggregate's text: one message alone, several as "[a, b]". */
export function aggregateMessage(messages: readonly string[]): string {
  return messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`;
}
