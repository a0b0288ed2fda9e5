/** Whether a namespace takes new content: it exists and is not being deleted (phase Terminating). */
import type { KubeObject } from '../../api/meta/types.js';

/** True for a namespace that exists, has no deletionTimestamp and is not Terminating. */
export function isActiveNamespace(ns: KubeObject | undefined): ns is KubeObject {
  return ns !== undefined && !ns.metadata.deletionTimestamp && (ns.status as { phase?: string } | undefined)?.phase !== 'Terminating';
}
