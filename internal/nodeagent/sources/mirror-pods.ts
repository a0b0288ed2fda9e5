/**
 * Mirror pods (kubelet's mirror client): the API server's copy of a static pod, created by the
 * node under its own identity with the config.mirror annotation (the static pod's hash) and the
 * Node as controlling owner (as kubelet 1.33 sets it, which NodeRestriction requires), and
 * deleted with grace period 0 and a uid precondition.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { ApiError } from '../client/api-client.js';
import type { AgentContext } from '../interface.js';
import { configHashAnnotation, configMirrorAnnotation } from './config-annotations.js';

/** The hash a static pod is known by (its config.hash annotation). */
export function podHash(pod: KubeObject): string {
  return pod.metadata.annotations?.[configHashAnnotation] ?? '';
}

/** True for a mirror pod (a pod carrying the config.mirror annotation). */
export function isMirrorPod(pod: KubeObject): boolean {
  return pod.metadata.annotations?.[configMirrorAnnotation] !== undefined;
}

/** True when mirror is the current mirror of staticPod (same hash, not being deleted). */
export function isMirrorPodOf(mirror: KubeObject, staticPod: KubeObject): boolean {
  return !mirror.metadata.deletionTimestamp && mirror.metadata.annotations?.[configMirrorAnnotation] === podHash(staticPod);
}

/** "namespace/name" (kubelet's pod full name is name_namespace; the key only needs to be unique). */
export function podFullName(pod: KubeObject): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

function podPath(namespace: string, name?: string): string {
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
}

/** CreateMirrorPod; an existing mirror with the same hash counts as created. */
export async function createMirrorPod(ctx: AgentContext, staticPod: KubeObject): Promise<void> {
  const node = await ctx.client.get(`/api/v1/nodes/${encodeURIComponent(ctx.nodeName)}`, { signal: ctx.signal }).catch((err: Error) => {
    throw new Error(`failed to get node UID: ${err.message}`);
  });
  const hash = podHash(staticPod);
  const { uid: _uid, resourceVersion: _rv, ...meta } = staticPod.metadata;
  const body = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...meta,
      annotations: { ...(meta.annotations ?? {}), [configMirrorAnnotation]: hash },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: ctx.nodeName, uid: node.metadata.uid, controller: true }],
    },
    spec: staticPod.spec,
  };
  try {
    await ctx.client.create(podPath(meta.namespace ?? 'default'), body, { signal: ctx.signal });
  } catch (err) {
    if (err instanceof ApiError && err.code === 409) {
      const existing = await ctx.client.get(podPath(meta.namespace ?? 'default', meta.name), { signal: ctx.signal });
      if (existing.metadata.annotations?.[configMirrorAnnotation] === hash) return;
    }
    throw err;
  }
}

/** DeleteMirrorPod: grace period 0, only that incarnation (uid precondition); gone already is fine. */
export async function deleteMirrorPod(ctx: AgentContext, mirror: KubeObject): Promise<void> {
  try {
    await ctx.client.delete(podPath(mirror.metadata.namespace ?? '', mirror.metadata.name), {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: mirror.metadata.uid },
    }, { signal: ctx.signal });
  } catch (err) {
    if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
    throw err;
  }
}
