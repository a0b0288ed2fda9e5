/**
 * kube's podutil.UpdatePodCondition: sets one condition of a pod's status, keeping its
 * lastTransitionTime when the status does not change.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { arrayAt, asObject, ensureObject, stringAt, type JsonObject } from '../shared/json-value.js';

/** RFC 3339 seconds, as metav1.Time renders. */
export function nowRFC3339(ms = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Sets condition (type, status, reason, message) on pod.status.conditions; mutates pod. */
export function updatePodCondition(pod: KubeObject, condition: { type: string; status: string; reason?: string; message?: string }): void {
  const status = ensureObject(pod as JsonObject, 'status');
  const conditions = arrayAt(status, 'conditions').map((c) => asObject(c) ?? {});
  const i = conditions.findIndex((c) => stringAt(c, 'type') === condition.type);
  const prev = i >= 0 ? conditions[i] : undefined;
  const next: JsonObject = { type: condition.type, status: condition.status, lastProbeTime: prev?.lastProbeTime ?? null };
  next.lastTransitionTime = prev && stringAt(prev, 'status') === condition.status && prev.lastTransitionTime ? prev.lastTransitionTime : nowRFC3339();
  if (condition.reason) next.reason = condition.reason;
  if (condition.message) next.message = condition.message;
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  status.conditions = conditions;
}
