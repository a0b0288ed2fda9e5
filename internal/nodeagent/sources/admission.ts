/**
 * kubelet's admission of a pod on the node (canAdmitPod with the predicate admit handler): the
 * kubernetes.io/os label and spec.os checks, then the scheduler's admission check in its order
 * (pods count, cpu, memory, ephemeral-storage and extended resources against allocatable minus
 * the other admitted pods' requests; required node affinity and nodeSelector; spec.nodeName;
 * host ports), then untolerated NoExecute taints for pods that are not static. The first failure
 * gives the reason (OutOfpods, OutOfcpu, OutOfmemory, NodeAffinity, NodeName, NodePorts,
 * TaintToleration, ...) and kubelet's message.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hostPortsConflict, podMatchesNode, untoleratedTaint } from './node-match.js';
import { podRequests, quantityUnits } from './pod-requests.js';
import { configSourceAnnotation } from './config-annotations.js';

/** The outcome of admitting one pod. */
export interface AdmitResult {
  readonly admit: boolean;
  readonly reason?: string;
  readonly message?: string;
}

const osLabel = 'kubernetes.io/os';
const nodeOS = 'linux';

function reject(reason: string, message: string): AdmitResult {
  return { admit: false, reason, message };
}

function predicate(name: string, desc: string): AdmitResult {
  return reject(name, `Predicate ${name} failed: ${desc}`);
}

function outOfReason(resource: string): string {
  return `OutOf${resource}`;
}

/** True for a pod from a manifest file or URL (kubelet's IsStaticPod). */
export function isStaticPod(pod: KubeObject): boolean {
  const source = pod.metadata.annotations?.[configSourceAnnotation];
  return source !== undefined && source !== 'api';
}

/**
 * Whether pod may run on node next to otherPods (the admitted pods that have not finished).
 * Pure: reads its arguments only.
 */
export function canAdmitPod(pod: KubeObject, otherPods: readonly KubeObject[], node: KubeObject): AdmitResult {
  const spec = (pod.spec ?? {}) as Record<string, unknown>;
  const podOSLabel = pod.metadata.labels?.[osLabel];
  if (podOSLabel !== undefined && podOSLabel !== nodeOS) {
    return reject('PodOSSelectorNodeLabelDoesNotMatch', "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label");
  }
  const os = (spec.os as { name?: string } | undefined)?.name;
  if (os !== undefined && os !== nodeOS) return reject('PodOSNotSupported', "Failed to admit pod as the OS field doesn't match node OS");

  const allocatable = ((node.status as Record<string, unknown> | undefined)?.allocatable ?? {}) as Record<string, unknown>;
  const capacity = (name: string): bigint => quantityUnits(name, allocatable[name] ?? 0);
  const allowedPods = capacity('pods');
  if (BigInt(otherPods.length + 1) > allowedPods) {
    return reject('OutOfpods', `Node didn't have enough resource: pods, requested: 1, used: ${otherPods.length}, capacity: ${allowedPods}`);
  }
  const wanted = podRequests(pod);
  const used = new Map<string, bigint>();
  for (const other of otherPods) for (const [k, v] of podRequests(other)) used.set(k, (used.get(k) ?? 0n) + v);
  // Resources in the scheduler's order; extended resources the node does not know are not counted.
  const names = ['cpu', 'memory', 'ephemeral-storage', ...[...wanted.keys()].filter((k) => !['cpu', 'memory', 'ephemeral-storage', 'pods'].includes(k)).sort()];
  for (const name of names) {
    const req = wanted.get(name) ?? 0n;
    if (req === 0n) continue;
    const isExtended = !['cpu', 'memory', 'ephemeral-storage'].includes(name);
    if (isExtended && !(name in allocatable)) continue;
    const cap = capacity(name);
    const inUse = used.get(name) ?? 0n;
    if (req > cap - inUse) {
      return reject(outOfReason(name), `Node didn't have enough resource: ${name}, requested: ${req}, used: ${inUse}, capacity: ${cap}`);
    }
  }
  if (!podMatchesNode(pod, node)) return predicate('NodeAffinity', "node(s) didn't match Pod's node affinity/selector");
  const nodeName = spec.nodeName as string | undefined;
  if (nodeName && nodeName !== node.metadata.name) return predicate('NodeName', "node(s) didn't match the requested node name");
  if (hostPortsConflict(pod, otherPods)) return predicate('NodePorts', "node(s) didn't have free ports for the requested pod ports");
  if (!isStaticPod(pod) && untoleratedTaint(pod, node, (t) => t.effect === 'NoExecute')) {
    return predicate('TaintToleration', "node(s) had taints that the pod didn't tolerate");
  }
  return { admit: true };
}
