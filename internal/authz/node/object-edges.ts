/**
 * How objects become edges in the Node authorizer's graph (kube's Graph.AddPod, AddPV,
 * AddVolumeAttachment, AddResourceSlice and their deletes). A pod bound to a node gives
 * pod -> node, and service account, secret, config map, claim and ResourceClaim -> pod, all
 * destined for that node; a mirror pod gets only pod -> node (a node must not grant itself access
 * by creating a pod). A bound persistent volume gives pv -> pvc and secret -> pv. Each add first
 * removes what the object contributed before.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { Graph } from './graph.js';
import { podClaimNames, podConfigMapNames, podResourceClaimNames, podSecretNames, visitPVKubeletSecrets } from './pod-references.js';

/** The annotation that marks a mirror pod (kubelet's copy of a static pod). */
export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

type Obj = Record<string, unknown>;

/** spec.nodeName of a pod, volume attachment or resource slice ('' when unset). */
export function nodeNameOf(o: KubeObject): string {
  const spec = (o as Obj).spec as Obj | undefined;
  return typeof spec?.nodeName === 'string' ? spec.nodeName : '';
}

/** Records a pod bound to a node; the caller skips unbound pods. */
export function addPod(g: Graph, pod: KubeObject): void {
  const ns = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  const nodeName = nodeNameOf(pod);
  g.deleteVertex('pod', ns, name);
  const podV = g.getOrCreate('pod', ns, name);
  g.addEdge(podV, g.getOrCreate('node', '', nodeName), nodeName);
  if (pod.metadata.annotations?.[mirrorPodAnnotation] !== undefined) return;
  const sa = ((pod as Obj).spec as Obj | undefined)?.serviceAccountName;
  if (typeof sa === 'string' && sa) g.addEdge(g.getOrCreate('serviceaccount', ns, sa), podV, nodeName);
  for (const s of podSecretNames(pod)) g.addEdge(g.getOrCreate('secret', ns, s), podV, nodeName);
  for (const c of podConfigMapNames(pod)) g.addEdge(g.getOrCreate('configmap', ns, c), podV, nodeName);
  for (const c of podClaimNames(pod)) g.addEdge(g.getOrCreate('pvc', ns, c), podV, nodeName);
  for (const c of podResourceClaimNames(pod)) g.addEdge(g.getOrCreate('resourceclaim', ns, c), podV, nodeName);
}

/** Forgets a pod (and whatever only it referenced). */
export function deletePod(g: Graph, namespace: string, name: string): void {
  g.deleteVertex('pod', namespace, name);
}

/** Records a persistent volume: bound to a claim, it leads to that claim and its secrets lead to it. */
export function addPV(g: Graph, pv: KubeObject): void {
  const name = pv.metadata.name ?? '';
  g.deleteVertex('pv', '', name);
  const claimRef = ((pv as Obj).spec as Obj | undefined)?.claimRef as Obj | undefined;
  if (!claimRef) return;
  const pvV = g.getOrCreate('pv', '', name);
  g.addEdge(pvV, g.getOrCreate('pvc', String(claimRef.namespace ?? ''), String(claimRef.name ?? '')), '');
  visitPVKubeletSecrets(pv, (ns, secret) => g.addEdge(g.getOrCreate('secret', ns, secret), pvV, ''));
}

/** Forgets a persistent volume. */
export function deletePV(g: Graph, name: string): void {
  g.deleteVertex('pv', '', name);
}

/** Records a cluster-scoped object that names its node (volume attachments, resource slices). */
export function addNodeObject(g: Graph, type: 'volumeattachment' | 'resourceslice', name: string, nodeName: string): void {
  g.deleteVertex(type, '', name);
  if (!nodeName) return;
  g.addEdge(g.getOrCreate(type, '', name), g.getOrCreate('node', '', nodeName), nodeName);
}

/** Forgets a volume attachment or resource slice. */
export function deleteNodeObject(g: Graph, type: 'volumeattachment' | 'resourceslice', name: string): void {
  g.deleteVertex(type, '', name);
}
