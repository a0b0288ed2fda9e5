/**
 * kubelet's rejectPod: the pod's status becomes phase Failed with the admission reason and
 * "Pod was rejected: <message>", keeping its QoS class and the conditions kubelet does not own,
 * written through pods/status (of the mirror pod for a static pod) with the uid as precondition.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { AgentContext } from '../interface.js';
import { computePodQOS } from '../../registry/core/shared/qos.js';

const kubeletConditions = new Set(['PodScheduled', 'Ready', 'Initialized', 'ContainersReady', 'PodReadyToStartContainers']);

/** The status kubelet sets on a rejected pod, given its current status. */
export function rejectedStatus(pod: KubeObject, current: Record<string, unknown> | undefined, reason: string, message: string): Record<string, unknown> {
  const kept = (Array.isArray(current?.conditions) ? (current.conditions as { type?: string }[]) : []).filter((c) => !kubeletConditions.has(c.type ?? ''));
  return {
    phase: 'Failed',
    reason,
    message: `Pod was rejected: ${message}`,
    qosClass: (current?.qosClass as string | undefined) ?? computePodQOS(pod.spec as never),
    conditions: kept.length > 0 ? kept : null,
  };
}

/** Writes the rejection to target's pods/status (target: the pod itself, or a static pod's mirror). */
export async function writeRejection(ctx: AgentContext, target: KubeObject, pod: KubeObject, reason: string, message: string): Promise<void> {
  const path = `/api/v1/namespaces/${encodeURIComponent(target.metadata.namespace ?? '')}/pods/${encodeURIComponent(target.metadata.name ?? '')}/status`;
  const status = rejectedStatus(pod, target.status as Record<string, unknown> | undefined, reason, message);
  try {
    await ctx.client.patch(path, 'merge', { metadata: { uid: target.metadata.uid }, status }, { signal: ctx.signal });
  } catch (err) {
    ctx.log.error('Failed to update status for rejected pod', { pod: `${target.metadata.namespace}/${target.metadata.name}`, err: (err as Error).message });
  }
}
